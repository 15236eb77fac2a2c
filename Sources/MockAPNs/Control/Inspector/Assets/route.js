// The page's state in its URL: which view, which record, which search. Every view has a permalink; reading a
// URL and writing it back gives the same URL. Pure, no DOM.

const SEQUENCE = /^(0|[1-9][0-9]{0,19})$/;
/** The largest sequence number the API takes (docs/control-api.md, Conventions). */
const MAX_SEQUENCE = 18446744073709551615n;

/** A phone id or token as a URL segment names it: printable, no slash or space, at most 256 characters. */
const PHONE_ID = /^[^\s/]{1,256}$/;

/** A sequence number from a URL segment, as a decimal string, or null when it is not one the API takes. */
export function sequenceFrom(text) {
    if (!SEQUENCE.test(String(text ?? ""))) return null;
    return BigInt(text) <= MAX_SEQUENCE ? String(text) : null;
}

/**
 * The view a URL names: `{view, …}` with `view` one of `pushes` (`q`, `older`), `push` (`seq`), `compare` (`a`,
 * `b`), `activities`, `activity` (`id`), `phones`, `phone` (`id`: a phone id or one of its tokens),
 * `connections`, `world`, or `notFound` (`path`) for anything else.
 */
export function parseRoute(pathname, search = "") {
    const params = new URLSearchParams(search);
    const parts = String(pathname).split("/").filter((part) => part !== "").map(decodeURIComponent);
    const seq = (text) => sequenceFrom(text);
    if (parts.length === 0) {
        const route = { view: "pushes", q: params.get("q") ?? "" };
        const older = seq(params.get("older"));
        if (older != null) route.older = older;
        return route;
    }
    const [head, ...rest] = parts;
    if (head === "push" && rest.length === 1 && seq(rest[0]) != null) return { view: "push", seq: seq(rest[0]) };
    if (head === "compare" && rest.length === 2 && seq(rest[0]) != null && seq(rest[1]) != null) {
        return { view: "compare", a: seq(rest[0]), b: seq(rest[1]) };
    }
    if (head === "activities" && rest.length === 0) return { view: "activities" };
    if (head === "activity" && rest.length === 1 && /^[0-9A-Za-z-]{1,64}$/.test(rest[0])) {
        return { view: "activity", id: rest[0] };
    }
    if (head === "phones" && rest.length === 0) return { view: "phones" };
    if (head === "phones" && rest.length === 1 && PHONE_ID.test(rest[0])) return { view: "phone", id: rest[0] };
    if (head === "connections" && rest.length === 0) return { view: "connections" };
    if (head === "world" && rest.length === 0) return { view: "world" };
    return { view: "notFound", path: String(pathname) };
}

/** The URL (path and search) of a route, the inverse of parseRoute. */
export function routeURL(route) {
    switch (route.view) {
        case "pushes": {
            const params = new URLSearchParams();
            if (route.q) params.set("q", route.q);
            if (route.older != null) params.set("older", String(route.older));
            const search = params.toString();
            return search ? `/?${search}` : "/";
        }
        case "push":
            return `/push/${route.seq}`;
        case "compare":
            return `/compare/${route.a}/${route.b}`;
        case "activity":
            return `/activity/${encodeURIComponent(route.id)}`;
        case "phone":
            return `/phones/${encodeURIComponent(route.id)}`;
        case "activities":
        case "phones":
        case "connections":
        case "world":
            return `/${route.view}`;
        default:
            return "/";
    }
}

/**
 * Where a search error points: the server answers `q: at '<word>' (character N): …` (N counted from 1). Answers
 * `{word, start, end, message}` with `start`/`end` offsets into the query text, or null when the message names
 * no place.
 */
export function queryErrorPlace(message, query) {
    const match = /at '((?:[^']|'(?!\s*\(character))*)' \(character (\d+)\)/.exec(String(message ?? ""));
    if (!match) return null;
    const word = match[1];
    let start = Number(match[2]) - 1;
    const text = String(query ?? "");
    if (!(start >= 0 && text.startsWith(word, start))) {
        const found = text.indexOf(word);
        if (found < 0) return null;
        start = found;
    }
    return { word, start, end: start + word.length, message: String(message) };
}
