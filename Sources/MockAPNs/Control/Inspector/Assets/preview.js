// The model of the notification preview: what an iPhone would draw for a push, approximately. Pure, no DOM; the
// view puts every text in the page with textContent, and URLs stay text (nothing is fetched).

const URL_PATTERN = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;

function text(value) {
    return typeof value === "string" ? value : null;
}

function locText(key, args) {
    if (!key) return null;
    const list = Array.isArray(args) && args.length ? ` (${args.map(String).join(", ")})` : "";
    return `[${key}]${list}`;
}

/** Every string in a value that looks like a URL, with its path: attachments and images are named, never fetched. */
function urlsIn(value, path, found) {
    if (found.length >= 10) return found;
    if (typeof value === "string" && URL_PATTERN.test(value)) found.push({ path, url: value });
    else if (Array.isArray(value)) value.forEach((item, i) => urlsIn(item, `${path}[${i}]`, found));
    else if (value && typeof value === "object") {
        for (const [key, item] of Object.entries(value)) urlsIn(item, path ? `${path}.${key}` : key, found);
    }
    return found;
}

/**
 * `{shows, why, app, title, subtitle, body, badge, sound, thread, category, interruption, mutable, attachments,
 * liveActivity}` for a payload (the record's payloadJSON) sent with `topic` and `pushType`. `shows` is false
 * when the phone would draw nothing (a background push, no aps, no alert/sound/badge), with `why` in words.
 * Localized keys are shown unresolved: `[ORDER_READY] (42)`.
 */
export function previewModel(payload, topic, pushType) {
    const model = {
        shows: false,
        why: null,
        app: topic ? String(topic).split(".").pop() : "app",
        title: null,
        subtitle: null,
        body: null,
        badge: null,
        sound: null,
        thread: null,
        category: null,
        interruption: "active",
        mutable: false,
        attachments: [],
        liveActivity: null,
    };
    if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
        model.why = "the payload is not a JSON object";
        return model;
    }
    const aps = payload.aps;
    if (aps === null || typeof aps !== "object" || Array.isArray(aps)) {
        model.why = aps === undefined ? "the payload has no aps" : "aps is not a JSON object";
        return model;
    }
    const alert = aps.alert;
    if (typeof alert === "string") model.body = alert;
    else if (alert && typeof alert === "object") {
        model.title = text(alert.title) ?? locText(text(alert["title-loc-key"]), alert["title-loc-args"]);
        model.subtitle = text(alert.subtitle) ?? locText(text(alert["subtitle-loc-key"]), alert["subtitle-loc-args"]);
        model.body = text(alert.body) ?? locText(text(alert["loc-key"]), alert["loc-args"]);
    }
    if (typeof aps.badge === "number") model.badge = aps.badge;
    if (typeof aps.sound === "string") model.sound = aps.sound;
    else if (aps.sound && typeof aps.sound === "object") {
        model.sound = `${text(aps.sound.name) ?? "default"}${aps.sound.critical ? " (critical)" : ""}`;
    }
    model.thread = text(aps["thread-id"]);
    model.category = text(aps.category);
    if (typeof aps["interruption-level"] === "string") model.interruption = aps["interruption-level"];
    model.mutable = aps["mutable-content"] === 1;
    model.attachments = urlsIn(payload, "", []);
    if (pushType === "liveactivity" || typeof aps.event === "string") {
        model.liveActivity = {
            event: text(aps.event),
            contentState: aps["content-state"] ?? null,
            attributesType: text(aps["attributes-type"]),
        };
    }
    const hasText = model.title || model.subtitle || model.body;
    if (pushType === "background" || (aps["content-available"] === 1 && !hasText && model.sound == null)) {
        model.why = "a background push wakes the app and shows nothing";
        return model;
    }
    if (!hasText && model.sound == null && model.badge == null) {
        model.why = model.liveActivity ?
            "a Live Activity push updates the activity on the lock screen, not a notification" :
            "aps has no alert, sound or badge";
        return model;
    }
    model.shows = Boolean(hasText);
    if (!hasText) model.why = "no alert text: the phone only plays the sound or sets the badge";
    return model;
}
