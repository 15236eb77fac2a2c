// Formatting of values the views show: times, tokens, sizes, ages. Pure functions, no DOM.

/** `0123ab…89cdef`: a token shortened to its first and last six digits, as `mock-apns requests` prints it. */
export function shortToken(token) {
    if (token == null) return "-";
    const text = String(token);
    return text.length > 14 ? `${text.slice(0, 6)}…${text.slice(-6)}` : text;
}

/** `13:10:46.296`: the local time of day of an ISO 8601 timestamp, or the text itself when it does not parse. */
export function timeOfDay(iso, zone) {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return String(iso ?? "-");
    const options = { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false };
    if (zone) options.timeZone = zone;
    const clock = date.toLocaleTimeString("en-GB", options);
    return `${clock}.${String(date.getUTCMilliseconds()).padStart(3, "0")}`;
}

/** `1,234`: a whole number with thousands separators. */
export function count(n) {
    if (typeof n !== "number" || !Number.isFinite(n)) return String(n ?? "-");
    return Math.trunc(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** `4,150 bytes`: a size in bytes. */
export function bytes(n) {
    return `${count(n)} ${n === 1 ? "byte" : "bytes"}`;
}

/** The UTF-8 size of a text, as APNs counts a payload. */
export function utf8Length(text) {
    return new TextEncoder().encode(String(text ?? "")).length;
}

/** `12 s`, `4 min 5 s`, `2 h 3 min`: a duration in seconds, in words; negative durations keep their sign. */
export function duration(seconds) {
    if (typeof seconds !== "number" || !Number.isFinite(seconds)) return "-";
    const sign = seconds < 0 ? "-" : "";
    let rest = Math.round(Math.abs(seconds));
    if (rest < 60) return `${sign}${rest} s`;
    const hours = Math.floor(rest / 3600);
    rest -= hours * 3600;
    const minutes = Math.floor(rest / 60);
    const secs = rest - minutes * 60;
    if (hours > 0) return `${sign}${hours} h${minutes ? ` ${minutes} min` : ""}`;
    return `${sign}${minutes} min${secs ? ` ${secs} s` : ""}`;
}

/** `200`, `410 Unregistered`, or `no answer`: the APNs answer of a summary or a record. */
export function answerText(status, reason) {
    if (status == null) return "no answer";
    return reason ? `${status} ${reason}` : String(status);
}

/** The payload limit that applies to a push type: 5120 bytes for VoIP, else 4096 (apns-reference.md §7, doc). */
export function payloadLimit(pushType) {
    return pushType === "voip" ? 5120 : 4096;
}

/** The JSON text of a value, indented two spaces, or the error's sentence when it cannot be written. */
export function pretty(value) {
    try {
        return JSON.stringify(value, null, 2);
    } catch (error) {
        return `(cannot show this value: ${error.message})`;
    }
}

/** The frame names of `framesReceived`, as HTTP/2 spells them. */
const FRAME_NAMES = { settings: "SETTINGS", settings_ack: "SETTINGS ACK", ping: "PING",
    window_update: "WINDOW_UPDATE", rst_stream: "RST_STREAM", goaway: "GOAWAY" };

/** `SETTINGS×1 PING×2`: the client's control frames that it sent at least once; `-` for none or not known. */
export function clientFramesText(frames) {
    if (!frames) return "-";
    const sent = Object.entries(FRAME_NAMES).filter(([key]) => Number(frames[key]) > 0)
        .map(([key, name]) => `${name}×${frames[key]}`);
    return sent.join(" ") || "-";
}
