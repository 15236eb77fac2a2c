import Hummingbird

extension ControlHandlers {
    /// Adds the phone routes (issue 23) to `router`.
    func registerPhones(on router: Router<BasicRequestContext>) {
        router.get("/v1/phones") { _, _ in
            let phones = try await self.server.phones()
            return ControlResponse.json(
                .object([("count", .number(String(phones.count))), ("phones", .array(phones.map(\.json)))]))
        }
        router.get("/v1/phones/{id}") { _, context in
            let id = Self.pathParameter("id", of: context)
            guard let phone = try await self.server.phone(id: id) else { throw InProcessControl.unknownPhone(id) }
            return ControlResponse.json(phone.json)
        }
        router.patch("/v1/phones/{id}") { request, context in
            let fields = try await Self.fields(request)
            return ControlResponse.json(
                try await self.server.updatePhone(id: Self.pathParameter("id", of: context), fields).json)
        }
        router.patch("/v1/phones/{id}/apps/{bundle}") { request, context in
            let fields = try await Self.fields(request)
            let phone = try await self.server.updatePhoneApp(
                id: Self.pathParameter("id", of: context), bundleID: Self.pathParameter("bundle", of: context),
                fields)
            return ControlResponse.json(phone.json)
        }
        router.post("/v1/phones/{id}/restart") { _, context in
            ControlResponse.json(try await self.server.restartPhone(id: Self.pathParameter("id", of: context)).json)
        }
    }

    /// A `PATCH` body: a JSON object of the fields to change.
    private static func fields(_ request: Request) async throws -> JSONValue {
        let text = try await bodyText(request)
        guard let json = try? JSONParser.parse(text), case .object = json else {
            throw MockAPNsControlError.badRequest(
                "the body must be a JSON object of the fields to change, such as {\"online\": false}")
        }
        return json
    }
}
