// The Activities views: `/activities` lists the simulated phone's Live Activities; `/activity/{id}` draws one
// as a timeline — push-to-start, start, updates, end, dismissal — with each step's content-state as a diff from
// the one before, ignored or dropped pushes inline with their reason, and the mock's clock on it.
import { api } from "./api.js";
import { h, replace, facts } from "./dom.js";
import { count, shortToken, timeOfDay } from "./format.js";
import { diffJSON } from "./jsondiff.js";

/** How many of an activity's newest pushes the timeline fetches the records of (for their content-state). */
const STEPS_WITH_RECORDS = 50;

/** `"1" → "2"`, `(removed)` or the new value: one change of a content-state, in words. */
function changeText(change) {
    const before = change.change === "added" ? "" : `${JSON.stringify(change.before)} → `;
    return before + (change.change === "removed" ? "(removed)" : JSON.stringify(change.after));
}

function outcomesText(outcomes) {
    return Object.entries(outcomes ?? {}).filter(([, n]) => n > 0).map(([name, n]) => `${name} ${n}`).join(", ") ||
        "no pushes";
}

/** The list of activities. */
export class ActivitiesView {
    constructor(context) {
        this.context = context;
    }

    async mount(main) {
        replace(main, h("p", { class: "loading" }, "Loading the activities…"));
        const answer = await api("/v1/activities");
        const rows = (answer.activities ?? []).map((activity) => h("tr", { testid: "activity-row",
                data: { id: activity.id } },
            h("td", {}, h("a", { href: `/activity/${encodeURIComponent(activity.id)}` }, activity.id.slice(0, 8))),
            h("td", {}, activity.attributesType),
            h("td", { class: `state ${activity.state}` }, activity.state),
            h("td", { title: activity.updateToken ?? "" }, shortToken(activity.updateToken)),
            h("td", {}, h("code", {}, JSON.stringify(activity.contentState ?? null).slice(0, 60))),
            h("td", {}, outcomesText(activity.outcomes))));
        replace(main, h("h1", {}, "Live Activities"),
            rows.length ?
            h("table", { class: "rows" }, h("thead", {}, h("tr", {}, ["Id", "Type", "State", "Token",
                    "Content-state", "Pushes"
                ].map((n) => h("th", { attrs: { scope: "col" } }, n)))),
                h("tbody", {}, rows)) :
            h("p", { class: "empty", testid: "empty" },
                "The simulated phone has no Live Activity. A push-to-start push (or POST /v1/activities) " +
                "starts one; the scenario must declare its type (scenarios/live-activity.yaml, taxi-ride.yaml)."));
    }
}

/** One activity as a timeline. */
export class ActivityView {
    constructor(context) {
        this.context = context;
    }

    async mount(main, route) {
        this.main = main;
        this.id = route.id;
        replace(main, h("p", { class: "loading" }, "Loading the activity…"));
        await this.refresh();
    }

    async refresh() {
        let activity;
        let clock;
        try {
            [activity, clock] = await Promise.all([api(`/v1/activities/${encodeURIComponent(this.id)}`), api(
                "/v1/clock")]);
        } catch (error) {
            replace(this.main, h("h1", {}, "Live Activity"),
                h("p", { class: "empty", testid: "not-found" }, error.message),
                h("p", {}, h("a", { href: "/activities" }, "All activities")));
            return;
        }
        const history = activity.history ?? [];
        const withRecords = history.slice(-STEPS_WITH_RECORDS);
        const records = new Map();
        await Promise.all(withRecords.map(async (entry) => {
            try {
                records.set(entry.sequence, await api(`/v1/requests/${entry.sequence}`));
            } catch {
                // The journal may have dropped it (its limit) or been cleared: the step shows without its content.
            }
        }));
        document.title = `Activity ${activity.id.slice(0, 8)} · mock-apns inspector`;
        replace(this.main,
            h("nav", { class: "crumbs" }, h("a", { href: "/activities" }, "← Activities")),
            h("h1", {}, `${activity.attributesType} `, h("small", {}, activity.id)),
            facts([
                ["state", h("span", { class: `state ${activity.state}`, testid: "activity-state" },
                    activity.state)],
                ["attributes", h("code", {}, JSON.stringify(activity.attributes))],
                ["content-state now", h("code", { testid: "activity-content-state" }, JSON.stringify(
                    activity.contentState))],
                ["update token", activity.updateToken ? h("code", { title: activity.updateToken },
                    shortToken(activity.updateToken)) : "-"],
                ["pushes", outcomesText(activity.outcomes)],
                ["budget", this.budgetText(history, clock)],
                ["stale date", activity.staleDate],
                ["ends at", activity.endsAt],
                ["dismisses at", activity.dismissesAt],
            ]),
            this.clockControls(clock),
            h("h2", {}, "Timeline"),
            activity.historyDropped ? h("p", { class: "hint" },
                `${count(activity.historyDropped)} older pushes are not kept in the history.`) : null,
            this.timeline(activity, history, records, clock));
    }

    budgetText(history, clock) {
        const now = Date.parse(clock.now);
        const recent = (entry) => entry.priority === 10 && now - Date.parse(entry.at) < 3600 * 1000;
        const hour = history.filter(recent).length;
        return `${hour} priority-10 push${hour === 1 ? "" : "es"} in the hour before the clock's now`;
    }

    timeline(activity, history, records, clock) {
        const items = [];
        let previousState = null;
        history.forEach((entry, index) => {
            const record = records.get(entry.sequence);
            const state = record?.payloadJSON?.aps?.["content-state"];
            const applied = ["started", "applied", "ended"].includes(entry.outcome);
            let diff = null;
            if (state !== undefined && applied) {
                const { changes } = previousState === null ? { changes: null } : diffJSON(previousState,
                    state);
                diff = changes === null ?
                    h("code", {}, JSON.stringify(state)) :
                    changes.length === 0 ? h("span", { class: "hint" }, "content-state unchanged") :
                    h("ul", { class: "diff-list" }, changes.map((c) => h("li", { class: c.change },
                        h("code", {}, c.path), ` ${changeText(c)}`)));
                previousState = state;
            } else if (state !== undefined) {
                diff = h("span", { class: "hint" }, "not applied: ", h("code", {}, JSON.stringify(state)));
            }
            const label = index === 0 && activity.startedByPush ? "push-to-start" : entry.event ?? "push";
            items.push({
                at: entry.at,
                node: h("li", { class: `step ${entry.outcome}`, testid: "timeline-step",
                        data: { event: entry.event ?? "", outcome: entry.outcome, seq: String(
                                entry.sequence) } },
                    h("time", { attrs: { datetime: entry.at } }, timeOfDay(entry.at)),
                    h("span", { class: "event" }, label),
                    h("span", { class: `outcome ${entry.outcome}` }, entry.outcome),
                    h("a", { href: `/push/${entry.sequence}` }, `#${entry.sequence}`),
                    entry.priority != null ? h("span", { class: "hint" },
                        ` priority ${entry.priority}`) : null,
                    entry.reason ? h("p", { class: "why" }, entry.reason) : null,
                    diff ? h("div", { class: "state-diff" }, diff) : null),
            });
        });
        const mark = (at, label, kind) => at && items.push({
            at,
            node: h("li", { class: `step marker ${kind}`, testid: "timeline-marker", data: { kind } },
                h("time", { attrs: { datetime: at } }, timeOfDay(at)), h("span", { class: "event" },
                    label)),
        });
        if (!activity.startedByPush) mark(activity.startedAt, "started by the app (no push)", "local-start");
        mark(activity.staleDate, "stale date", "stale");
        mark(activity.endedAt, "ended", "ended");
        mark(activity.dismissedAt, "dismissed", "dismissed");
        if (!activity.dismissedAt) mark(activity.dismissesAt, "will be dismissed", "dismisses");
        if (!activity.endedAt) mark(activity.endsAt, "will end (8 hours)", "ends");
        const moved = clock.offset && clock.offset !== "0s";
        const offset = moved ? ` (real time ${clock.offset.startsWith("-") ? "" : "+"}${clock.offset})` : "";
        mark(clock.now, `the mock's clock now${offset}`, "now");
        items.sort((x, y) => Date.parse(x.at) - Date.parse(y.at));
        return h("ol", { class: "timeline", testid: "activity-timeline" }, items.map((item) => item.node));
    }

    clockControls(clock) {
        const readOnly = this.context.info.readOnly;
        const advance = h("input", { type: "text", value: "1h", size: 6, attrs: { "aria-label": "advance by" },
            testid: "clock-advance" });
        const set = h("input", { type: "text", value: clock.now, size: 26, attrs: { "aria-label": "set to" },
            testid: "clock-set" });
        const move = async (body) => {
            try {
                await api("/v1/clock", { method: "POST", json: body });
                await this.refresh();
            } catch (error) {
                this.context.showError(`The clock did not move: ${error.message}`);
            }
        };
        const form = (input, label, body) => h("form", { on: { submit: (event) => { event.preventDefault();
                        move(body(input.value.trim())); } } },
            h("button", { type: "submit", disabled: readOnly }, label), input);
        return h("section", { class: "card clock", testid: "clock", attrs: { "aria-label": "The mock's clock" } },
            h("p", {}, "The mock's clock: ", h("time", { testid: "clock-now", attrs: { datetime: clock.now } },
                clock.now), ` (offset ${clock.offset})`),
            h("div", { class: "buttons" },
                form(advance, "Advance", (value) => ({ advance: value })),
                form(set, "Set", (value) => ({ set: value })),
                h("button", { type: "button", disabled: readOnly, testid: "clock-reset", on: { click: () =>
                            move({ reset: true }) } }, "Real time")));
    }
}
