// The parts of a push's page that Compare and replay show too: the verdict card and the phone's verdict.
import { h } from "./dom.js";
import { answerText } from "./format.js";
import { notificationSender, outcomeTone } from "./phones.js";
import { sourceOf } from "./rules.js";

/** The APNs answer of a record in words: `200 accepted`, `400 BadDeviceToken`, `no answer (drop)`. */
export function answerWords(record) {
    if (!record.response) return record.fault ? `no answer (${record.fault})` : "no answer";
    const status = record.response.status;
    return record.accepted ? `${status} accepted` : answerText(status, record.reason);
}

/** The verdict card: status, reason, the rule that decided with its sentence and source, the notes. */
export function verdictCard(record, { testid = "verdict", title = "APNs answered" } = {}) {
    const source = sourceOf(record.rule);
    const state = !record.response ? "noanswer" : record.accepted ? "accepted" : "rejected";
    return h("section", { class: `card verdict ${state}`, testid, attrs: { "aria-label": title } },
        h("h2", {}, title),
        h("p", { class: "answer", testid: "verdict-answer" }, answerWords(record)),
        h("p", { class: "rule" }, "rule ", h("code", { testid: "verdict-rule" }, record.rule ?? "-"),
            source ? h("span", { class: `source ${source.tag.replace("/", "-")}`, title: source.words,
                    testid: "verdict-source" },
                `${source.tag}${source.section ? ` ${source.section}` : ""}`) : null),
        record.explanation ? h("p", { class: "why", testid: "verdict-why" }, record.explanation) : null,
        source ? h("p", { class: "source-words" },
            `Source: ${source.words}${source.section ? ` (apns-reference ${source.section})` : ""}.`) : null,
        record.notes?.length ? h("ul", { class: "notes", attrs: { "aria-label": "notes" } },
            record.notes.map((note) => h("li", {}, note))) : null,
        record.response?.apnsID ? h("p", { class: "apns-id" }, "apns-id ", h("code", {}, record.response.apnsID)) :
        null);
}

/**
 * The phone's verdict: what the simulated phone did with the push (its outcome, the rule that decided and why, the
 * events after it) with a link to the phone, or why there is none.
 */
export function deviceCard(record) {
    const device = record.device;
    if (!device) {
        return h("section", { class: "card device", testid: "device", attrs: { "aria-label": "The phone" } },
            h("h2", {}, "The phone"),
            h("p", { testid: "device-outcome", class: "outcome none", data: { outcome: "" } },
                record.accepted ? "no simulated phone received this push" : "not delivered: APNs refused it"),
            h("p", { class: "hint" }, record.accepted ?
                "The simulated phone plays alert, background and VoIP pushes and Live Activities; for this push " +
                "the verdict above is all there is (another push type, a scripted rule with phone: false, or the " +
                "simulation turned off)." :
                "A push APNs refuses never reaches a phone."),
            phoneLink(record));
    }
    const activity = device.activity;
    const sender = notificationSender(device);
    return h("section", { class: `card device ${device.outcome}`, testid: "device",
        attrs: { "aria-label": "The phone" } },
        h("h2", {}, "The phone"),
        h("p", { class: `outcome ${device.outcome} tone-${outcomeTone(device.outcome)}`, testid: "device-outcome",
            data: { outcome: device.outcome } }, device.outcome),
        device.rule ? h("p", { class: "rule" }, "rule ", h("code", { testid: "device-rule" }, device.rule),
            device.trace?.length > 1 ? h("span", { class: "hint" }, ` (fired: ${device.trace.join(", ")})`) : null) :
        null,
        device.reason ? h("p", { class: "why", testid: "device-reason" }, device.reason) : null,
        sender ? h("p", {}, "a communication notification sent by ",
            h("strong", { testid: "device-sender" }, sender)) : null,
        device.warnings?.length ? h("ul", { class: "warnings-list", attrs: { "aria-label": "warnings" } },
            device.warnings.map((warning) => h("li", {}, warning))) : null,
        device.notes?.length ? h("ul", { class: "notes", attrs: { "aria-label": "notes" } },
            device.notes.map((note) => h("li", {}, note))) : null,
        device.related != null ? h("p", {}, "related push ", h("a", { href: `/push/${device.related}` },
            `#${device.related}`)) : null,
        activity ? h("p", {}, "activity ", h("a", { href: `/activity/${encodeURIComponent(activity)}` },
        activity)) : null,
        laterEvents(record),
        phoneLink(record));
}

/** A link to the phone the push went to (`/phones/{token}`), when the record names a token. */
function phoneLink(record) {
    if (!record.token || !record.accepted) return null;
    return h("p", {}, h("a", { href: `/phones/${encodeURIComponent(record.token)}`, testid: "device-phone-link" },
        "Open the phone →"));
}

/** What happened to the push after its record (`events`: delivered, replaced, expired), when the server lists it. */
function laterEvents(record) {
    const events = Array.isArray(record.events) ? record.events : [];
    if (!events.length) return null;
    return h("ul", { class: "device-events", testid: "device-events", attrs: { "aria-label": "later" } },
        events.map((event) => h("li", { data: { event: String(event.event ?? event.outcome ?? "") } },
            event.sequence != null ? [h("a", { href: `/push/${event.sequence}` }, `#${event.sequence}`), " "] : null,
            String(event.event ?? event.outcome ?? "event"), event.rule ? ` (${event.rule})` : "",
            event.reason ? `: ${event.reason}` : "")));
}
