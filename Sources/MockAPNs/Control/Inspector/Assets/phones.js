// What the Phones view computes from the phone routes and the journal (docs/control-api.md "Phones"): a phone's
// list row, its notifications grouped by thread, its state changes in words and its timeline. Pure, no DOM.

/** The device outcomes a person would count as "it worked", "it happened quietly" and "it did not happen". */
const TONES = {
    good: ["shown", "launched", "reported", "applied", "started", "ended", "delivered"],
    quiet: ["shownQuietly", "withheld", "held", "stored"],
    bad: ["notShown", "notLaunched", "terminated", "discarded", "dropped", "throttled", "ignored", "expired",
        "replaced"],
};

/** `good`, `quiet`, `bad` or `""`: how a device outcome reads (the page colours it so). */
export function outcomeTone(outcome) {
    for (const [tone, outcomes] of Object.entries(TONES)) if (outcomes.includes(outcome)) return tone;
    return "";
}

/** `off`, or the Focus's name (`Sleep`), with what it lets through: `Sleep (allows com.example.chat)`. */
export function focusText(focus) {
    if (focus == null || focus === false) return "off";
    if (typeof focus !== "object") return String(focus);
    const name = focus.name || "on";
    const allowed = Array.isArray(focus.allowedApps) && focus.allowedApps.length ?
        ` (allows ${focus.allowedApps.join(", ")})` : "";
    return `${name}${allowed}`;
}

/**
 * A phone of `GET /v1/phones` as its list row shows it: `{id, kind, online, locked, focus, apps, notifications,
 * tokens}` with `kind` `declared` or `implicit` and `notifications` the count over its apps.
 */
export function phoneRow(phone) {
    const state = phone?.state ?? {};
    const apps = Array.isArray(phone?.apps) ? phone.apps : [];
    return {
        id: String(phone?.id ?? ""),
        kind: phone?.declared ? "declared" : "implicit",
        online: state.online !== false,
        locked: state.locked === true,
        focus: focusText(state.focus),
        apps: apps.length,
        notifications: apps.reduce((sum, app) => sum + (Number(app.notificationCount) || 0), 0),
        tokens: Array.isArray(phone?.tokens) ? phone.tokens.map(String) : [],
    };
}

/**
 * The implicit phones the journal shows and `GET /v1/phones` does not list: the server keeps a token's own phone only
 * once it has something to remember (a change, a budget, a collapse id), and until then it is the default phone.
 * From push summaries (newest last), one row per token a push reached (`device` set), newest first, with the
 * default state and `source: "journal"`; tokens on a listed phone are left out.
 */
export function journalPhones(summaries, rows) {
    const known = new Set();
    for (const row of rows ?? []) {
        known.add(String(row.id).toLowerCase());
        for (const token of row.tokens ?? []) known.add(String(token).toLowerCase());
    }
    const found = [];
    for (const summary of [...(summaries ?? [])].reverse()) {
        const token = summary?.token == null ? "" : String(summary.token).toLowerCase();
        if (!token || summary.device == null || known.has(token)) continue;
        known.add(token);
        found.push({ id: token, kind: "implicit", online: true, locked: false, focus: "off", apps: null,
            notifications: null, tokens: [token], source: "journal" });
    }
    return found;
}

/** The phones whose id or one of whose tokens contains `text` (any case); all of them for an empty text. */
export function filterPhones(phones, text) {
    const needle = String(text ?? "").trim().toLowerCase();
    if (!needle) return phones;
    return phones.filter((phone) => String(phone.id).toLowerCase().includes(needle) ||
        (phone.tokens ?? []).some((token) => String(token).toLowerCase().includes(needle)));
}

/** From `phone` records (any order): the time of each phone's newest change, by phone id. */
export function lastChanges(records) {
    const newest = new Map();
    for (const record of records ?? []) {
        if (record?.kind !== "phone" || record.phone == null) continue;
        const at = record.receivedAt;
        const known = newest.get(record.phone);
        if (known == null || Date.parse(at) > Date.parse(known)) newest.set(record.phone, at);
    }
    return newest;
}

/**
 * A notification list (newest first) grouped as the person sees it: one group per `threadID` (the notifications
 * without one are each their own group), ordered by their newest notification. Answers `[{thread, items}]`.
 */
export function threadGroups(notifications) {
    const groups = [];
    const byThread = new Map();
    for (const notification of notifications ?? []) {
        const thread = notification?.threadID ?? null;
        if (thread == null || thread === "") {
            groups.push({ thread: null, items: [notification] });
            continue;
        }
        let group = byThread.get(thread);
        if (!group) {
            group = { thread, items: [] };
            byThread.set(thread, group);
            groups.push(group);
        }
        group.items.push(notification);
    }
    return groups;
}

/**
 * The person a notification of `GET /v1/phones/{id}`, or a record's `device` part, is from: `communication.sender`
 * of a communication notification (the app's service extension made it one), or `""` for an ordinary one
 * (`communication` null or left out).
 */
export function notificationSender(notification) {
    const sender = notification?.communication?.sender;
    return typeof sender === "string" ? sender.trim() : "";
}

/** The avatar iOS draws for a sender without a photo: the initials of the first two words, `Anna Smith` → `AS`. */
export function senderInitials(name) {
    const words = String(name ?? "").trim().split(/\s+/).filter(Boolean).slice(0, 2);
    return words.map((word) => Array.from(word)[0].toUpperCase()).join("");
}

function valueText(value) {
    if (value === undefined) return "(unset)";
    if (value === null) return "off";
    return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * A `phone` record's change in words, one line per field: `online: true → false`, `app com.example.app state:
 * background → forceQuit`, `released #12 held for com.example.app`. Nested objects (`settings`) are walked field by
 * field; an app's fields (under `apps.<bundle>`, or the record's `app`) are named with the app. A person's action
 * (`"action": "restart"`) comes first: `restarted the phone`.
 */
export function changeLines(record) {
    const lines = [];
    if (record?.action === "restart") lines.push("restarted the phone");
    else if (typeof record?.action === "string") lines.push(record.action);
    const before = record?.before ?? {};
    const after = record?.after ?? {};
    const nestedApps = "apps" in before || "apps" in after;
    const prefix = record?.app && !nestedApps ? `app ${record.app} ` : "";
    const object = (value) => value != null && typeof value === "object" && !Array.isArray(value);
    const walk = (path, was, now) => {
        if (object(was) && object(now)) {
            for (const name of new Set([...Object.keys(was), ...Object.keys(now)])) {
                walk([...path, name], was[name], now[name]);
            }
            return;
        }
        if (JSON.stringify(was) === JSON.stringify(now)) return;
        const name = path[0] === "apps" && path.length > 2 ? `app ${path[1]} ${path.slice(2).join(".")}` :
            prefix + path.join(".");
        lines.push(`${name}: ${valueText(was)} → ${valueText(now)}`);
    };
    walk([], before, after);
    for (const released of record?.released ?? []) {
        const push = released?.push != null ? `#${released.push}` : "a push";
        lines.push(`released ${push} held for ${released?.app ?? "the app"}`);
    }
    return lines;
}

/**
 * The phone's timeline, oldest first, from its `phone` records (`records`, already for this phone), the pushes to
 * its tokens (`pushes`, full records) and `device-event` records (`events`; kept when their push is among
 * `pushes`): `[{sequence, at, kind: "change" | "push" | "event", record}]`, at most `limit` (the newest).
 */
export function timelineEntries({ records = [], pushes = [], events = [], limit = 200 } = {}) {
    const entries = new Map();
    const add = (kind, record) => {
        if (record?.sequence == null) return;
        const sequence = Number(record.sequence);
        entries.set(String(sequence), { sequence, at: record.receivedAt, kind, record });
    };
    for (const record of records) add("change", record);
    for (const record of pushes) add("push", record);
    const pushed = new Set(pushes.map((record) => Number(record.sequence)));
    for (const record of events) if (pushed.has(Number(record.push))) add("event", record);
    return [...entries.values()].sort((a, b) => a.sequence - b.sequence).slice(-limit);
}

/** `#12 delivered: back online (storage-delivered)`: a `device-event` record in words. */
export function eventText(record) {
    const what = record?.event ?? record?.outcome ?? "event";
    const why = record?.reason ? `: ${record.reason}` : "";
    const rule = record?.rule ? ` (${record.rule})` : "";
    return `#${record?.push ?? "?"} ${what}${why}${rule}`;
}
