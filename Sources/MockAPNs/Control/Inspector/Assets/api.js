// The page's only way to the server: the documented control API (docs/control-api.md). Every failure becomes
// an ApiError whose message is a sentence a person can act on.
import { EventStreamParser } from "./sse.js";

const TOKEN_KEY = "mock-apns.control-token";

/** A failed call: `status` is the HTTP status (0 when the server could not be reached), `body` its JSON. */
export class ApiError extends Error {
    constructor(message, status, body = null) {
        super(message);
        this.status = status;
        this.body = body;
    }
}

let askForToken = async () => null;

/** Sets what the page does on a 401: a function that asks the person for the token (null when they cancel). */
export function onTokenNeeded(ask) {
    askForToken = ask;
}

/** The control token kept for this tab, or null. */
export function savedToken() {
    try {
        return sessionStorage.getItem(TOKEN_KEY);
    } catch {
        return null;
    }
}

function saveToken(token) {
    try {
        if (token) sessionStorage.setItem(TOKEN_KEY, token);
        else sessionStorage.removeItem(TOKEN_KEY);
    } catch {
        // Storage can be off (a private window's policy): the token then lives until the page reloads.
    }
    memoryToken = token;
}

let memoryToken = null;

function headersFor(extra = {}) {
    const headers = { ...extra };
    const token = savedToken() ?? memoryToken;
    if (token) headers.Authorization = `Bearer ${token}`;
    return headers;
}

function unreachable(error) {
    return new ApiError(
        `Cannot reach the mock-apns control API at ${location.origin} (${error.message}). ` +
        "Is mock-apns still running? The page keeps what it showed; reload when the server is back.",
        0,
    );
}

/**
 * Calls a route: `api("/v1/requests?view=summary")`, `api(path, {method: "POST", json: {...}})`. Answers the
 * JSON (or the text with `text: true`). On a 401 it asks for the token once and tries again. State-changing
 * calls send JSON with `Content-Type: application/json` and `X-Mock-APNs: inspector`, as the server's
 * cross-site check wants.
 */
export async function api(path, options = {}) {
    const { method = "GET", json, text = false, signal } = options;
    const extra = {};
    if (method !== "GET") extra["X-Mock-APNs"] = "inspector";
    if (json !== undefined) extra["Content-Type"] = "application/json";
    for (let attempt = 0;; attempt++) {
        let response;
        try {
            response = await fetch(path, {
                method,
                signal,
                headers: headersFor(extra),
                body: json === undefined ? undefined : JSON.stringify(json),
                cache: "no-store",
            });
        } catch (error) {
            if (error.name === "AbortError") throw error;
            throw unreachable(error);
        }
        if (response.status === 401 && attempt === 0) {
            const token = await askForToken();
            if (token) {
                saveToken(token);
                continue;
            }
        }
        if (!response.ok) throw await failure(response, method, path);
        if (text) return response.text();
        try {
            return await response.json();
        } catch {
            throw new ApiError(`${method} ${path} answered ${response.status} with a body that is not JSON.`, 502);
        }
    }
}

async function failure(response, method, path) {
    let body = null;
    let message = null;
    try {
        const raw = await response.text();
        try {
            body = JSON.parse(raw);
            message = typeof body?.error === "string" ? body.error : null;
        } catch {
            message = raw.trim().slice(0, 300) || null;
        }
    } catch {
        // The body could not be read: the status alone has to do.
    }
    if (response.status === 401) {
        message = "The control API needs a token (mock-apns serve --control-token). Reload the page to enter it.";
    }
    const route = path.split("?")[0];
    return new ApiError(message ?? `${method} ${route} answered HTTP ${response.status}.`, response.status, body);
}

/**
 * Follows a server-sent events route with fetch (which, unlike EventSource, can send Authorization), and
 * reconnects with `Last-Event-ID` after a drop: 1 s, 2 s, 4 s … at most 10 s apart. `onEvent({id, event, data})`
 * gets each event; `onState(state, detail)` gets `connecting`, `live`, `reconnecting` (with the reason) and
 * `failed` (a 4xx other than 401: the request itself is wrong, so trying again cannot help). `stop()` ends it.
 */
export function follow(path, { onEvent, onState, lastEventId = null }) {
    const controller = new AbortController();
    let stopped = false;
    let lastId = lastEventId;
    const run = async () => {
        let delay = 1000;
        let askedToken = false;
        while (!stopped) {
            onState("connecting");
            let reason;
            try {
                const headers = headersFor(lastId != null ? { "Last-Event-ID": String(lastId) } : {});
                const response = await fetch(path, { headers, signal: controller.signal, cache: "no-store" });
                if (response.status === 401 && !askedToken) {
                    askedToken = true;
                    const token = await askForToken();
                    if (token) saveToken(token);
                    continue;
                }
                if (response.status >= 400 && response.status < 500) {
                    onState("failed", (await failure(response, "GET", path)).message);
                    return;
                }
                if (!response.ok || !response.body) throw new Error(
                    `the stream answered HTTP ${response.status}`);
                onState("live");
                delay = 1000;
                const parser = new EventStreamParser();
                const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
                for (;;) {
                    const { value, done } = await reader.read();
                    if (done) break;
                    for (const event of parser.feed(value)) {
                        if (event.id != null) lastId = event.id;
                        onEvent(event);
                    }
                }
                reason = "the server closed the stream";
            } catch (error) {
                if (stopped || error.name === "AbortError") return;
                reason = error.message;
            }
            if (stopped) return;
            onState("reconnecting", reason);
            await new Promise((resolve) => setTimeout(resolve, delay));
            delay = Math.min(delay * 2, 10000);
        }
    };
    run();
    return {
        stop() {
            stopped = true;
            controller.abort();
        },
        get lastEventId() {
            return lastId;
        },
    };
}

/** Copies text to the clipboard; answers false when the browser refuses (the caller then shows the text). */
export async function copyText(value) {
    try {
        await navigator.clipboard.writeText(value);
        return true;
    } catch {
        return false;
    }
}
