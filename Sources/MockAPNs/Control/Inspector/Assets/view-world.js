// The World view (`/world`): the loaded scenario (apps, devices, keys, scripted rules), reset, and — under
// `mock-apns run` or for a scenario with expectations — the expectations checked with POST /v1/verify, each
// linking to the pushes it looked at.
import { api } from "./api.js";
import { h, replace, facts } from "./dom.js";
import { shortToken } from "./format.js";

function table(headings, rows, testid) {
    if (!rows.length) return h("p", { class: "hint" }, "none");
    return h("table", { class: "rows", testid }, h("thead", {}, h("tr", {}, headings.map((n) => h(
        "th", { attrs: { scope: "col" } }, n)))),
        h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((cell) => h("td", {}, cell))))));
}

/** The simulated world. */
export class WorldView {
    constructor(context) {
        this.context = context;
    }

    async mount(main) {
        this.main = main;
        replace(main, h("p", { class: "loading" }, "Loading the scenario…"));
        const scenario = await api("/v1/scenario");
        // The rules' hits come from GET /v1/rules (a saved journal opened with `inspect` has none to report).
        const counts = await api("/v1/rules").then((answer) => answer.rules ?? [], () => null);
        const readOnly = this.context.info.readOnly;
        this.report = h("div", { testid: "verify-report" });
        const hasExpectations = Array.isArray(scenario.expect) && scenario.expect.length > 0;
        replace(main,
            h("div", { class: "toolbar" }, h("h1", {}, `Scenario ${scenario.name ?? ""}`),
                h("button", { type: "button", testid: "reset", disabled: readOnly, on: { click: () => this.reset() } },
                    "Reset"),
                h("button", { type: "button", testid: "verify", disabled: readOnly,
                    on: { click: () => this.verify() } },
                    "Check expectations")),
            facts([
                ["environment", scenario.environment],
                ["unknown devices", scenario.unknownDevices],
                ["unknown keys", scenario.unknownKeys]
            ]),
            this.report,
            h("h2", {}, "Apps"), table(["bundle id", "team"], (scenario.apps ?? []).map((a) => [a.bundleID ??
                "-", a.teamID ?? "-"
            ])),
            h("h2", {}, "Devices"),
            table(["token", "app", "environment", "kind", "state"], (scenario.devices ?? []).map((d) => [
                h("code", { title: d.token }, shortToken(d.token)), d.app ?? "-", d.environment ?? "-",
                d.kind ?? "app", d.state ?? "active"
            ]), "devices"),
            h("h2", {}, "Keys"),
            table(["key", "team"], (scenario.keys ?? []).map((k) => [k.keyID ?? "-", k.teamID ?? "-"])),
            h("h2", {}, "Scripted rules"),
            table(["name", "match", "answer", "hits"], (scenario.rules ?? []).map((r) => {
                const count = counts?.find((c) => c.rule?.name === r.name);
                return [
                    r.name ?? "-", h("code", {}, JSON.stringify(r.match ?? {})),
                    h("code", {}, JSON.stringify(r.respond ?? r.fault ?? {})),
                    count ? h("span", { testid: "rule-hits", title: `${count.matched} request(s) matched` },
                        `${count.applied} of ${count.matched} matched`) : "not reported"
                ];
            }), "rules"),
            hasExpectations ? h("p", { class: "hint" },
                `${scenario.expect.length} expectation(s) in the scenario.`) : null);
        if (this.context.info.run || hasExpectations) this.verify();
    }

    async reset() {
        if (!window.confirm("Reset clears the journal and restores the scenario's world, rules and clock. Go on?"))
            return;
        try {
            const answer = await api("/v1/reset", { method: "POST" });
            this.context.toast(`Reset to scenario ${answer.scenario}.`);
            await this.mount(this.main);
        } catch (error) {
            this.context.showError(`Reset failed: ${error.message}`);
        }
    }

    async verify() {
        try {
            const report = await api("/v1/verify", { method: "POST" });
            replace(this.report, h("section", { class: `card ${report.passed ? "accepted" : "rejected"}`,
                    attrs: { "aria-label": "Expectations" } },
                h("h2", {}, report.passed ? "Expectations pass" : "Expectations fail"),
                h("p", { testid: "verify-summary" }, report.summary),
                h("ul", { class: "verify-items" }, (report.items ?? []).map((item) => h("li", {
                        class: item.passed ? "pass" : "fail",
                        testid: "verify-item"
                    },
                    h("strong", {}, item.passed ? "✓ " : "✗ "), `${item.name}: ${item.summary}`,
                    item.details?.length ? h("ul", {}, item.details.map((d) => h("li", {}, d))) :
                    null,
                    item.records?.length ? h("p", {}, "pushes: ", item.records.slice(0, 50).map((
                        seq) => [h("a", { href: `/push/${seq}` }, `#${seq}`), " "])) : null)))));
        } catch (error) {
            replace(this.report, h("p", { class: "hint" }, `The expectations cannot be checked: ${error.message}`));
        }
    }
}
