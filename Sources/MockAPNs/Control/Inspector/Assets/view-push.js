// The Push view (`/push/{seq}`): why APNs answered it so and what the phone did, with the request below and the
// field at fault marked; actions: copy as curl, copy JSON, replay, edit and replay, compare with another.
import { api, copyText } from "./api.js";
import { h, replace, facts } from "./dom.js";
import { bytes, duration, payloadLimit, pretty, timeOfDay, utf8Length } from "./format.js";
import { jsonLines } from "./jsonlines.js";
import { isWithin } from "./jsonpath.js";
import { bearerToken, decodeJWT, issuedAtSeconds, tokenAge } from "./jwt.js";
import { previewModel } from "./preview.js";
import { deviceFaultPath, faultOf } from "./rules.js";
import { replay } from "./actions.js";
import { deviceCard, verdictCard } from "./view-verdict.js";

/** A JSON value as lines, those inside `faultPath` marked (data-testid="fault-line"). */
export function jsonBlock(value, faultPath, props = {}) {
    return h("pre", { class: "json", ...props },
        jsonLines(value).map((line) => {
            const marked = faultPath != null && line.path != null && isWithin(line.path, faultPath);
            return h("span", {
                class: marked ? "line fault" : "line",
                testid: marked ? "fault-line" : null,
                data: line.path != null ? { path: line.path } : {},
            }, "  ".repeat(line.depth) + line.text, "\n");
        }));
}

/** Header lines as an edit box holds them: `name: value`, one a line. */
function headerText(headers) {
    return (headers ?? []).map(([name, value]) => `${name}: ${value}`).join("\n");
}

/** The header list of an edit box, or `{error}` naming the line that is not `name: value`. */
export function parseHeaderText(text) {
    const headers = [];
    const lines = String(text).split("\n");
    for (let i = 0; i < lines.length; i++) {
        const line = lines[i].replace(/\r$/, "");
        if (line.trim() === "") continue;
        const colon = line.indexOf(":", line.startsWith(":") ? 1 : 0);
        if (colon <= 0) return { error: `line ${i + 1} is not 'name: value': ${line}` };
        headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
    }
    return { headers };
}

/** `{ok, message}` for a payload being typed: valid JSON and its size against the limit, or where it breaks. */
export function payloadCheck(text, pushType) {
    const size = utf8Length(text);
    const limit = payloadLimit(pushType);
    const sizeWords = `${bytes(size)} of ${bytes(limit)}`;
    if (text.trim() === "") return { ok: true, message: `empty payload (APNs answers 400 PayloadEmpty)` };
    try {
        JSON.parse(text);
    } catch (error) {
        return { ok: false, message: `not JSON: ${error.message} (${sizeWords})` };
    }
    return { ok: true, message: `valid JSON, ${sizeWords}${size > limit ? ": over the limit, APNs answers 413" : ""}` };
}

/** One push, opened. */
export class PushView {
    constructor(context) {
        this.context = context;
        this.record = null;
    }

    async mount(main, route) {
        this.seq = route.seq;
        this.context.cameFrom = route.seq;
        replace(main, h("p", { class: "loading" }, `Loading #${route.seq}…`));
        let record;
        try {
            record = await api(`/v1/requests/${route.seq}`);
        } catch (error) {
            replace(main, h("h1", {}, `Push #${route.seq}`),
                h("p", { class: "empty", testid: "not-found" }, error.message),
                h("p", {}, h("a", { href: "/" }, "Back to the pushes")));
            return;
        }
        this.record = record;
        document.title = `#${record.sequence} · mock-apns inspector`;
        if (record.kind && record.kind !== "push") {
            replace(main, h("h1", {}, `Record #${record.sequence}: ${record.kind}`),
                h("p", {}, "A record of a kind this inspector does not draw; here it is as recorded."),
                jsonBlock(record, null));
            return;
        }
        this.main = main;
        this.draw();
        this.loadConnection();
    }

    draw() {
        const record = this.record;
        const fault = faultOf(record);
        const devicePath = deviceFaultPath(record.device);
        const payloadFault = fault?.payload ?? devicePath;
        this.curlBox = h("div", { class: "curl", testid: "curl-box", hidden: true });
        this.replays = h("div", { class: "replays", testid: "replays" });
        this.editor = h("div", { class: "editor", hidden: true });
        this.connectionBox = h("div", {});
        const readOnly = this.context.info.readOnly;
        const title = record.replayOf != null ?
            [`Push #${record.sequence} `, h("small", {}, "replay of ", h("a", { href: `/push/${record.replayOf}` },
                `#${record.replayOf}`))] :
            `Push #${record.sequence}`;
        replace(this.main,
            h("nav", { class: "crumbs", attrs: { "aria-label": "Breadcrumb" } },
                h("a", { href: "/", testid: "back" }, "← Pushes"), " (Esc)"),
            h("div", { class: "toolbar" },
                h("h1", {}, title),
                h("div", { class: "actions", attrs: { role: "toolbar", "aria-label": "Actions" } },
                    h("button", { type: "button", testid: "copy-curl", title: "c",
                        on: { click: () => this.copyCurl() } },
                        "Copy as curl"),
                    h("button", { type: "button", testid: "copy-json", on: { click: () => this.copyJSON() } },
                        "Copy JSON"),
                    h("button", {
                        type: "button",
                        testid: "replay",
                        title: readOnly ? "read-only: mock-apns inspect" : "r",
                        disabled: readOnly,
                        on: { click: () => this.replay() }
                    }, "Replay"),
                    h("button", { type: "button", testid: "edit-replay", disabled: readOnly, on: { click: () =>
                                this.openEditor() } }, "Edit and replay"),
                    this.compareForm())),
            this.curlBox,
            h("div", { class: "cards" }, verdictCard(record), deviceCard(record)),
            this.replays,
            this.editor,
            this.requestSection(fault),
            this.payloadSection(payloadFault),
            this.authSection(),
            this.connectionBox,
            this.previewSection(),
            h("details", { class: "raw-record" }, h("summary", {}, "The whole record (JSON)"), jsonBlock(record,
                null)));
    }

    compareForm() {
        const input = h("input", {
            type: "text",
            inputMode: "numeric",
            size: 6,
            testid: "compare-with",
            attrs: { "aria-label": "Compare with push number", placeholder: "#seq" },
            value: Number(this.record.sequence) > 1 ? String(Number(this.record.sequence) - 1) : "",
        });
        return h("form", {
            class: "compare-form",
            on: {
                submit: (event) => {
                    event.preventDefault();
                    const other = input.value.trim().replace(/^#/, "");
                    if (!/^\d+$/.test(other)) {
                        this.context.showError(`Compare with: '${input.value}' is not a push number.`);
                        return;
                    }
                    this.context.navigate(`/compare/${this.record.sequence}/${other}`);
                },
            },
        }, h("button", { type: "submit", testid: "compare" }, "Compare with…"), input);
    }

    requestSection(fault) {
        const record = this.record;
        const headerRows = (record.headers ?? []).map(([name, value]) => {
            const marked = fault?.header != null && String(name).toLowerCase() === fault.header;
            const shown = String(name).toLowerCase() === "authorization" && value.length > 60 ?
                `${value.slice(0, 56)}…` : value;
            return h("tr", { class: marked ? "fault" : "", testid: marked ? "fault-header" : "header-row",
                    data: { name: String(name).toLowerCase() } },
                h("th", { attrs: { scope: "row" } }, name), h("td", { title: value }, shown));
        });
        const missing = fault?.header && !(record.headers ?? []).some(([name]) => String(name).toLowerCase() ===
            fault.header);
        const pathMarked = fault?.path || fault?.method;
        return h("section", { class: "card request", attrs: { "aria-labelledby": "request-title" } },
            h("h2", { id: "request-title" }, "Request"),
            h("p", { class: pathMarked ? "path fault" : "path", testid: pathMarked ? "fault-path" :
                        "request-path" },
                h("code", {}, `${record.method} ${record.path}`)),
            missing ? h("p", { class: "fault missing", testid: "fault-header" },
                `no ${fault.header} header: that is what the rule caught`) : null,
            h("table", { class: "headers" }, h("caption", {}, "Headers"), h("tbody", {}, headerRows)),
            fault?.connection ? h("p", { class: "fault" },
                "The fault lies in the connection's credentials (the client certificate).") : null);
    }

    payloadSection(faultPath) {
        const record = this.record;
        const size = record.payloadTruncated ? record.payloadBytes : utf8Length(record.payload);
        const limit = payloadLimit(record.pushType);
        const over = size > limit;
        const pretty = h("div", { class: "payload-pretty" },
            record.payloadJSON != null ? jsonBlock(record.payloadJSON, faultPath, { testid: "payload-pretty" }) :
            h("p", { class: "hint" }, record.payload === "" ? "The payload is empty." :
                "The payload is not JSON; the raw text is below."));
        const raw = h("pre", { class: "raw", testid: "payload-raw", hidden: record.payloadJSON != null },
            record.payload ?? "");
        const toggle = h("button", {
            type: "button",
            attrs: { "aria-pressed": "false" },
            on: {
                click: () => {
                    const showRaw = raw.hidden;
                    raw.hidden = !showRaw;
                    pretty.hidden = showRaw;
                    toggle.setAttribute("aria-pressed", String(showRaw));
                    replace(toggle, showRaw ? "Pretty" : "Raw");
                },
            },
        }, "Raw");
        if (record.payloadJSON == null) toggle.hidden = true;
        return h("section", { class: `card payload${faultPath === "" ? " fault" : ""}`,
                attrs: { "aria-labelledby": "payload-title" } },
            h("div", { class: "toolbar" }, h("h2", { id: "payload-title" }, "Payload"), toggle),
            h("p", { class: over ? "size over" : "size", testid: "payload-size" },
                `${bytes(size)} of the ${bytes(limit)} limit for ${record.pushType ?? "alert"} pushes`,
                record.payloadTruncated ? ` (kept: the first ${bytes(utf8Length(record.payload))})` : ""),
            faultPath ? h("p", { class: "fault-note" }, faultPath === "" ? "The whole payload is at fault." : [
                "At fault: ", h("code", {}, faultPath)
            ]) : null,
            pretty, raw);
    }

    authSection() {
        const record = this.record;
        const auth = record.auth;
        const header = (record.headers ?? []).find(([name]) => String(name).toLowerCase() === "authorization");
        const jwt = header ? bearerToken(header[1]) : null;
        const rows = [];
        if (auth?.kind === "certificate") {
            return h("section", { class: "card auth", testid: "auth", attrs: { "aria-labelledby": "auth-title" } },
                h("h2", { id: "auth-title" }, "Authentication: client certificate"),
                facts([
                    ["topics", (auth.certificateTopics ?? []).join(", ") || "-"],
                    ["verified", auth.verified ? "yes" : "no"]
                ]));
        }
        if (!jwt) {
            return h("section", { class: "card auth", testid: "auth", attrs: { "aria-labelledby": "auth-title" } },
                h("h2", { id: "auth-title" }, "Authentication"),
                h("p", {}, header ? "The authorization header holds no bearer token." :
                    "No authorization header: no provider token was sent."));
        }
        const decoded = decodeJWT(jwt);
        const iat = auth?.issuedAt ?? issuedAtSeconds(decoded.claims);
        const age = tokenAge(iat, record.receivedAt);
        rows.push(["team (iss)", auth?.teamID ?? decoded.claims?.iss ?? "-"]);
        rows.push(["key (kid)", auth?.keyID ?? decoded.header?.kid ?? "-"]);
        if (iat != null) {
            const asString = typeof decoded.claims?.iat === "string" ? " (sent as a string)" : "";
            rows.push(["issued (iat)", `${new Date(iat * 1000).toISOString()}${asString}`]);
        }
        if (age) rows.push(["age at the push", h("span", { class: age.expired || age.future ? "bad" : "",
            testid: "token-age" }, `${duration(age.age)}: ${age.words}`)]);
        rows.push(["signature", decoded.signatureForm ?? "-"]);
        rows.push(["verified", auth ? (auth.verified ? "yes, against a known key" :
            "no: the key is unknown (lenient mode accepts it)") : "-"]);
        return h("section", { class: "card auth", testid: "auth", attrs: { "aria-labelledby": "auth-title" } },
            h("h2", { id: "auth-title" }, "Authentication: provider token (JWT)"),
            facts(rows),
            decoded.errors.length ? h("ul", { class: "bad" }, decoded.errors.map((e) => h("li", {}, e))) : null,
            h("div", { class: "jwt" },
                h("div", {}, h("h3", {}, "Header"), decoded.header ? jsonBlock(decoded.header,
                null, { testid: "jwt-header" }) : h("p", {}, "-")),
                h("div", {}, h("h3", {}, "Claims"), decoded.claims ? jsonBlock(decoded.claims,
                null, { testid: "jwt-claims" }) : h("p", {}, "-"))));
    }

    async loadConnection() {
        const record = this.record;
        const base = [
            ["connection", h("a", { href: "/connections" }, `#${record.connection}`)],
            ["from", record.remoteAddress || null],
            ["stream", record.stream != null ? String(record.stream) : null],
            ["authority", record.authority ?? null],
            ["received", `${record.receivedAt} (${timeOfDay(record.receivedAt)} local)`],
            ["answered", record.answeredAt ?? null],
        ];
        const section = (extra, note) => h("section", { class: "card connection", testid: "connection",
                attrs: { "aria-labelledby": "conn-title" } },
            h("h2", { id: "conn-title" }, "Connection and stream"), facts([...base, ...extra]), note ? h(
            "p", { class: "hint" }, note) : null);
        replace(this.connectionBox, section([]));
        try {
            const connection = await api(`/v1/connections/${record.connection}`);
            const events = (connection.events ?? []).map((e) =>
                `${timeOfDay(e.at)} ${e.kind}${e.detail ? `: ${e.detail}` : ""}`);
            replace(this.connectionBox, section([
                ["ALPN", connection.alpn ?? "none (HTTP/2 preface straight after TLS)"],
                ["pushes on it", connection.pushes != null ? String(connection.pushes) : null],
                ["events", events.length ? h("ul", {}, events.map((e) => h("li", {}, e))) :
                    "no GOAWAY, reset or stream-limit change"
                ],
            ]));
        } catch (error) {
            replace(this.connectionBox, section([],
            `The connection's details are not available: ${error.message}`));
        }
    }

    previewSection() {
        const record = this.record;
        const model = previewModel(record.payloadJSON, record.topic, record.pushType);
        const lines = (...items) => items.filter(Boolean);
        const attachment = model.attachments.length
            ? h("p", { class: "attachment" }, `attachment: ${model.attachments[0].url}`) : null;
        const card = (kind, extra) => h("figure", { class: `notification ${kind}`, testid: `preview-${kind}` },
            h("figcaption", {}, kind === "lock" ? "Lock screen" : kind === "banner" ? "Banner" : "Expanded"),
            h("div", { class: "bubble" },
                h("p", { class: "app" }, model.app.toUpperCase(), h("span", { class: "when" }, "now")),
                lines(model.title && h("p", { class: "title" }, model.title),
                    model.subtitle && h("p", { class: "subtitle" }, model.subtitle),
                    model.body && h("p", { class: kind === "expanded" ? "body full" : "body" }, model.body)),
                extra));
        const details = facts([
            ["badge", model.badge != null ? String(model.badge) : null],
            ["sound", model.sound],
            ["thread", model.thread],
            ["category", model.category],
            ["interruption", model.interruption],
            ["attachments (not fetched)", model.attachments.length ? h("ul", {}, model.attachments.map((
                a) => h("li", {}, h("code", {}, a.path), " ", a.url))) : null],
        ]);
        return h("section", { class: "card preview", testid: "preview",
            attrs: { "aria-labelledby": "preview-title" } },
            h("h2", { id: "preview-title" }, "What the phone would show ", h("small", {},
            "(an approximation)")),
            model.shows ?
            h("div", { class: "previews" }, card("lock"), card("banner"), card("expanded", attachment)) :
            h("p", { class: "hint", testid: "preview-none" }, `Nothing to draw: ${model.why}.`),
            model.liveActivity ? h("p", {}, `Live Activity ${model.liveActivity.event ?? "push"}`,
                model.liveActivity.contentState
                    ? [": content-state ", h("code", {}, JSON.stringify(model.liveActivity.contentState))] : "")
                : null,
            details);
    }

    async copyCurl() {
        const answer = await this.context.actions.copyCurl(this.record.sequence);
        if (!answer) return;
        this.curlBox.hidden = false;
        replace(this.curlBox, h("p", {}, answer.copied ? "Copied to the clipboard:" : "Copy this command:"),
            h("pre", { testid: "curl-command" }, answer.command));
    }

    async copyJSON() {
        const text = JSON.stringify(this.record, null, 2);
        const copied = await copyText(text);
        this.context.toast(copied ? `Copied #${this.record.sequence} as JSON.` :
            "The browser refused the clipboard; open “The whole record” below to copy it.");
    }

    async replay(edits) {
        const fresh = await replay(this.record.sequence, this.context, edits);
        if (!fresh) return;
        const column = h("div", {
                class: "replay-result",
                testid: "replay-result",
                data: { seq: String(fresh.sequence) }
            },
            verdictCard(fresh, { testid: "replay-verdict",
                title: `${edits ? "Edited replay" : "Replay"} #${fresh.sequence}` }),
            h("p", {}, h("a", { href: `/push/${fresh.sequence}`, testid: "replay-link" },
                    `Open #${fresh.sequence}`), " · ",
                h("a", { href: `/compare/${this.record.sequence}/${fresh.sequence}` },
                    "compare with the original")));
        this.replays.prepend(h("div", { class: "side-by-side" },
            verdictCard(this.record, { testid: "original-verdict",
                title: `Original #${this.record.sequence}` }), column));
    }

    openEditor() {
        if (!this.editor.hidden) {
            this.editor.querySelector("textarea")?.focus();
            return;
        }
        const record = this.record;
        const headers = h("textarea", { rows: 8, spellcheck: false, testid: "edit-headers",
            attrs: { "aria-label": "Headers, one 'name: value' a line" } });
        headers.value = headerText(record.headers);
        const payload = h("textarea", { rows: 12, spellcheck: false, testid: "edit-payload",
            attrs: { "aria-label": "Payload", "aria-describedby": "payload-check" } });
        payload.value = record.payloadJSON != null ? pretty(record.payloadJSON) : record.payload;
        const status = h("p", { id: "payload-check", class: "check", testid: "payload-check",
            attrs: { role: "status", "aria-live": "polite" } });
        const send = h("button", { type: "submit", class: "primary", testid: "edit-send" }, "Replay with these");
        const check = () => {
            const parsed = parseHeaderText(headers.value);
            const typeHeader = parsed.headers?.find(([n]) => n.toLowerCase() === "apns-push-type");
            const pushType = typeHeader?.[1] ?? record.pushType;
            const result = payloadCheck(payload.value, pushType);
            const message = parsed.error ? `Headers: ${parsed.error}` : result.message;
            replace(status, message);
            status.className = parsed.error || !result.ok ? "check bad" : "check ok";
            payload.setAttribute("aria-invalid", String(!result.ok));
            send.disabled = Boolean(parsed.error) || !result.ok;
        };
        headers.addEventListener("input", check);
        payload.addEventListener("input", check);
        check();
        const form = h("form", {
                class: "card",
                testid: "editor",
                on: {
                    submit: (event) => {
                        event.preventDefault();
                        const parsed = parseHeaderText(headers.value);
                        if (parsed.error) return;
                        // A content-length follows the edited payload, as curl would send it: the recorded one
                        // counts the original bytes, and the server refuses a request whose data differs from it.
                        const bytes = new TextEncoder().encode(payload.value).length;
                        const sent = parsed.headers.map(([name, value]) =>
                            [name, name.toLowerCase() === "content-length" ? String(bytes) : value]);
                        this.replay({ headers: sent, payload: payload.value });
                    },
                },
            }, h("h2", {}, "Edit and replay"),
            h("label", {}, "Headers ", h("small", {}, "(one name: value a line; content-length follows the payload; the path stays ",
                h("code", {}, record.path), ")")), headers,
            h("label", {}, "Payload"), payload, status,
            h("div", { class: "buttons" }, send,
                h("button", { type: "button", on: { click: () => this.closeEditor() } }, "Close")));
        replace(this.editor, form);
        this.editor.hidden = false;
        payload.focus();
    }

    closeEditor() {
        this.editor.hidden = true;
    }

    /** c copies as curl, r replays, Esc goes back to the list at this row. */
    key(event) {
        if (!this.record) return false;
        if (event.key === "c") {
            this.copyCurl();
            return true;
        }
        if (event.key === "r" && !this.context.info.readOnly) {
            this.replay();
            return true;
        }
        if (event.key === "Escape") {
            this.context.cameFrom = String(this.record.sequence);
            this.context.navigate(this.context.listURL ?? "/");
            return true;
        }
        return false;
    }
}
