// The Connections view (`/connections`): each APNs connection with its auth, ALPN, pushes and answers, the
// stream-limit changes, GOAWAYs and resets the server sent on it, and the control frames the client sent
// (GET /v1/connections).
import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { clientFramesText, timeOfDay } from "./format.js";

const COLUMNS = ["Id", "From", "Open", "ALPN", "Auth", "Pushes", "Answers", "Events", "Client frames"];

function authText(auth) {
    if (!auth) return "-";
    if (auth.kind === "certificate") return `certificate ${(auth.certificateTopics ?? []).join(", ")}`;
    return `token ${auth.teamID ?? "?"}/${auth.keyID ?? "?"}${auth.verified ? "" : " (unverified)"}`;
}

/** The connections list. */
export class ConnectionsView {
    constructor(context) {
        this.context = context;
    }

    async mount(main) {
        replace(main, h("p", { class: "loading" }, "Loading the connections…"));
        let answer;
        try {
            answer = await api("/v1/connections");
        } catch (error) {
            replace(main, h("h1", {}, "Connections"), h("p", { class: "empty" },
                `The connections are not available: ${error.message}`));
            return;
        }
        const rows = (answer.connections ?? []).map((c) => h("tr", {
                testid: "connection-row",
                data: { id: String(c.id) }
            },
            h("td", {}, h("a", { href: `/?q=${encodeURIComponent(`connection:${c.id}`)}` }, `#${c.id}`)),
            h("td", {}, c.remoteAddress ?? "-"),
            h("td", {}, c.firstAt ? timeOfDay(c.firstAt) : "-", " – ", c.lastAt ? timeOfDay(c.lastAt) :
            "-"),
            h("td", {}, c.alpn ?? "none"),
            h("td", {}, authText(c.auth)),
            h("td", {}, String(c.pushes ?? 0)),
            h("td", {}, Object.entries(c.byStatus ?? {}).map(([status, n]) => `${status}×${n}`).join(" ") ||
                "-"),
            h("td", {}, (c.events ?? []).length ?
                h("ul", {}, c.events.map((e) => h("li", {},
                    `${timeOfDay(e.at)} ${e.kind}${e.detail ? `: ${e.detail}` : ""}`))) :
                "-"),
            h("td", { testid: "client-frames" }, clientFramesText(c.framesReceived))));
        replace(main, h("h1", {}, "Connections"),
            rows.length ?
            h("table", { class: "rows" },
                h("thead", {}, h("tr", {}, COLUMNS.map((n) => h("th", { attrs: { scope: "col" } }, n)))),
                h("tbody", {}, rows)) :
            h("p", { class: "empty", testid: "empty" }, "No APNs connection yet."));
    }
}
