/// The control API's routes, for the start banner, the docs and "no such route" answers.
public enum ControlRoutes {
    /// Every route, as `METHOD path`.
    public static let all = [
        "GET /v1/requests", "GET /v1/requests/wait", "GET /v1/requests/stream", "GET /v1/requests/{seq}",
        "POST /v1/requests/{seq}/replay", "GET /v1/requests/{seq}/curl", "DELETE /v1/requests", "POST /v1/reset",
        "GET /v1/scenario", "PUT /v1/scenario", "POST /v1/devices",
        "POST /v1/devices/{token}/unregister", "DELETE /v1/devices/{token}", "GET /v1/rules", "POST /v1/rules",
        "DELETE /v1/rules",
        "GET /v1/clock", "POST /v1/clock", "GET /v1/activities", "GET /v1/activities/wait",
        "GET /v1/activities/stream", "GET /v1/activities/{id}", "POST /v1/activities",
        "POST /v1/activities/{id}/rotate-token", "POST /v1/activities/{id}/dismiss", "GET /v1/phones",
        "GET /v1/phones/{id}", "PATCH /v1/phones/{id}", "PATCH /v1/phones/{id}/apps/{bundle}",
        "POST /v1/phones/{id}/restart", "GET /v1/channels",
        "GET /v1/channels/{id}", "GET /v1/stats",
        "POST /v1/verify", "GET /v1/connections", "GET /v1/connections/{id}", "GET /v1/info", "GET /metrics",
        "GET /healthz", "GET / (the inspector page, /push/{seq}, …)", "GET /assets/{name}",
    ]

    /// The routes on one line.
    public static var summary: String { all.joined(separator: ", ") }

    /// The default control port.
    public static let defaultPort = 2190
}
