// The Compare view (`/compare/{a}/{b}`): two pushes side by side — the verdicts, the headers, and the payloads as
// a diff by JSON path — for "my server's push against the one that worked".
import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { diffHeaders, diffJSON } from "./jsondiff.js";
import { deviceCard, verdictCard } from "./view-verdict.js";

function shown(value) {
    if (value === undefined) return "";
    return JSON.stringify(value);
}

/** Two pushes compared. */
export class CompareView {
    constructor(context) {
        this.context = context;
    }

    async mount(main, route) {
        replace(main, h("p", { class: "loading" }, `Loading #${route.a} and #${route.b}…`));
        const results = await Promise.allSettled([api(`/v1/requests/${route.a}`), api(`/v1/requests/${route.b}`)]);
        const failed = results.find((result) => result.status === "rejected");
        if (failed) {
            replace(main, h("h1", {}, `Compare #${route.a} with #${route.b}`),
                h("p", { class: "empty" }, failed.reason.message));
            return;
        }
        const [a, b] = results.map((result) => result.value);
        document.title = `#${a.sequence} vs #${b.sequence} · mock-apns inspector`;
        const headerRows = diffHeaders(a.headers, b.headers).map((row) =>
            h("tr", { class: row.change, testid: "header-diff", data: { name: row.name, change: row.change } },
                h("th", { attrs: { scope: "row" } }, row.name),
                h("td", {}, row.before ?? "—"),
                h("td", {}, row.after ?? "—"),
                h("td", {}, row.change === "same" ? "" : row.change)));
        const payloadA = a.payloadJSON ?? a.payload;
        const payloadB = b.payloadJSON ?? b.payload;
        const { changes, truncated } = diffJSON(payloadA, payloadB);
        const payloadRows = changes.map((change) =>
            h("tr", {
                class: change.change, testid: "payload-diff",
                data: { path: change.path, change: change.change }
            },
                h("th", { attrs: { scope: "row" } },
                    h("code", {}, change.path === "" ? "(the whole payload)" : change.path)),
                h("td", {}, h("code", {}, shown(change.before))),
                h("td", {}, h("code", {}, shown(change.after))),
                h("td", {}, change.change)));
        const column = (record) => h("div", { class: "compare-column" },
            h("h2", {}, h("a", { href: `/push/${record.sequence}` }, `#${record.sequence}`),
                ` ${record.pushType ?? ""} ${record.topic ?? ""}`),
            verdictCard(record, { testid: `verdict-${record.sequence}` }), deviceCard(record));
        replace(main,
            h("div", { class: "toolbar" }, h("h1", {}, `Compare #${a.sequence} with #${b.sequence}`),
                h("a", { href: `/compare/${b.sequence}/${a.sequence}` }, "swap")),
            h("div", { class: "side-by-side", testid: "compare" }, column(a), column(b)),
            h("section", { class: "card", attrs: { "aria-labelledby": "hdiff" } }, h("h2", { id: "hdiff" },
                    "Headers"),
                h("table", { class: "diff" }, h("thead", {}, h("tr", {}, h("th", {}, "header"), h("th", {},
                        `#${a.sequence}`), h("th", {}, `#${b.sequence}`), h("th", {}, ""))),
                    h("tbody", {}, headerRows))),
            h("section", { class: "card", attrs: { "aria-labelledby": "pdiff" } }, h("h2", { id: "pdiff" },
                    "Payload, by JSON path"),
                changes.length === 0 ?
                h("p", { testid: "payload-same" }, "The payloads are the same.") :
                h("table", { class: "diff", testid: "payload-diff-table" },
                    h("thead", {}, h("tr", {}, h("th", {}, "path"), h("th", {}, `#${a.sequence}`), h("th", {},
                        `#${b.sequence}`), h("th", {}, ""))),
                    h("tbody", {}, payloadRows)),
                truncated ? h("p", { class: "hint" },
                    `Only the first ${changes.length} differences are listed.`) : null));
    }
}
