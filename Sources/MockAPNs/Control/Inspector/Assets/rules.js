// What a verdict's rule points at in the request, and where the rule comes from. One table: a new check id is
// one line here. Sources are the tags of apns-reference.md: doc (Apple's documentation), seen (observed on the
// live service), lib (what widely used clients assume), open (unconfirmed; the mock's documented choice).

/**
 * Rule id (or its family, before the first dot) → `{at, source, section}`: `at` is where the fault lies —
 * `{header: name}`, `{path: true}` (the request path, i.e. the device token), `{payload: path}` ("" for the whole
 * payload), `{method: true}` or `{connection: true}`.
 */
const RULES = new Map([
    ["method", { at: { method: true }, source: "doc", section: "§1" }],
    ["path", { at: { path: true }, source: "doc", section: "§1" }],
    ["path.token", { at: { path: true }, source: "doc", section: "§1" }],
    ["headers.duplicate", { at: { header: null }, source: "doc", section: "§3" }],
    ["apns-id", { at: { header: "apns-id" }, source: "doc", section: "§3" }],
    ["apns-expiration", { at: { header: "apns-expiration" }, source: "open", section: "§3" }],
    ["apns-priority", { at: { header: "apns-priority" }, source: "doc", section: "§3" }],
    ["apns-priority.background", { at: { header: "apns-priority" }, source: "seen", section: "§3" }],
    ["apns-priority.liveactivity", { at: { header: "apns-priority" }, source: "doc", section: "§8" }],
    ["apns-push-type", { at: { header: "apns-push-type" }, source: "doc", section: "§3" }],
    ["apns-collapse-id", { at: { header: "apns-collapse-id" }, source: "doc", section: "§3" }],
    ["apns-topic", { at: { header: "apns-topic" }, source: "doc", section: "§3" }],
    ["apns-topic.suffix", { at: { header: "apns-topic" }, source: "open", section: "§3" }],
    ["apns-topic.certificate", { at: { header: "apns-topic" }, source: "open", section: "§6" }],
    ["apns-topic.certificate-push-type", { at: { header: "apns-topic" }, source: "seen", section: "§3" }],
    ["provider-token", { at: { header: "authorization" }, source: "doc", section: "§5" }],
    ["provider-token.iat-string", { at: { header: "authorization" }, source: "open", section: "§5" }],
    ["provider-token.future", { at: { header: "authorization" }, source: "open", section: "§5" }],
    ["provider-token.refresh-rate", { at: { header: "authorization" }, source: "doc/seen", section: "§5" }],
    ["provider-token.connection-team", { at: { header: "authorization" }, source: "seen", section: "§5" }],
    ["provider-token.connection-key", { at: { header: "authorization" }, source: "doc/seen", section: "§5" }],
    ["provider-token.environment", { at: { header: "authorization" }, source: "doc/seen", section: "§5" }],
    ["certificate", { at: { connection: true }, source: "doc/seen", section: "§6" }],
    ["device-token", { at: { path: true }, source: "doc", section: "§9" }],
    ["device-token.case", { at: { path: true }, source: "open", section: "§9" }],
    ["device", { at: { path: true }, source: "doc/seen", section: "§9" }],
    ["device.kind", { at: { header: "apns-push-type" }, source: "doc", section: "§8" }],
    ["device.app", { at: { header: "apns-topic" }, source: "doc", section: "§9" }],
    ["payload", { at: { payload: "" }, source: "doc", section: "§7" }],
    ["payload.json", { at: { payload: "" }, source: "open", section: "§7" }],
]);

/** The entry for a rule id: the id itself, else its family (`provider-token.expired` → `provider-token`). */
function entry(rule) {
    const id = String(rule ?? "");
    if (RULES.has(id)) return RULES.get(id);
    const family = id.split(".")[0];
    return RULES.get(family) ?? null;
}

/**
 * Where the fault of a record lies, or null when nothing in the request is at fault (accepted, scripted, or a
 * rule this table does not know). A `duplicate headers` rule points at the header sent twice.
 */
export function faultOf(record) {
    if (!record || record.accepted) return null;
    const rule = String(record.rule ?? "");
    if (rule.startsWith("scripted:")) return null;
    const found = entry(rule);
    if (!found) return null;
    if (found.at.header === null) {
        const seen = new Set();
        for (const [name] of record.headers ?? []) {
            const key = String(name).toLowerCase();
            if (seen.has(key)) return { header: key };
            seen.add(key);
        }
        return null;
    }
    return found.at;
}

/** `{tag, section, words}` for the source of a rule, or null for `accepted`, scripted rules and unknown ids. */
export function sourceOf(rule) {
    const id = String(rule ?? "");
    if (id === "accepted") return { tag: "doc", section: "", words: "every check passed" };
    if (id.startsWith("scripted:")) {
        return { tag: "scenario", section: "", words: `the scenario's scripted rule '${id.slice(9)}'` };
    }
    const found = entry(id);
    if (!found) return null;
    const words = {
        doc: "Apple's documentation says so",
        seen: "observed on the live service",
        "doc/seen": "documented by Apple and observed on the live service",
        lib: "what widely used clients assume",
        open: "not confirmed anywhere: the mock's documented choice",
    } [found.source];
    return { tag: found.source, section: found.section, words };
}

/**
 * The phone's part of a Live Activity push points at a payload field when its reason names one
 * (`content-state.status: expected String, found number` → `aps.content-state.status`).
 */
export function deviceFaultPath(device) {
    const reason = String(device?.reason ?? "");
    const match = /\b((?:content-state|attributes)(?:\.[A-Za-z0-9_-]+|\[\d+\])*)\s*:/.exec(reason);
    if (match) return `aps.${match[1]}`;
    const key = /\b(stale-date|dismissal-date|timestamp|event|attributes-type|relevance-score)\b/.exec(reason);
    return key ? `aps.${key[1]}` : null;
}
