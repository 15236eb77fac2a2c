// The Pushes view (`/`): newest first, one row per record summary, filled live from the coalesced record stream
// (a few events a second, whatever the push rate). At most one page of rows is in the DOM; new records are drawn at
// most four times a second, and only while the reader follows at the top; otherwise a "N new" pill counts them and
// nothing moves under the reader.
import { api, follow, ApiError } from "./api.js";
import { h, replace } from "./dom.js";
import { answerText, count, shortToken, timeOfDay } from "./format.js";
import { LiveList } from "./livelist.js";
import { outcomeTone } from "./phones.js";
import { queryErrorPlace, routeURL } from "./route.js";

/** Rows on a page: the most the DOM ever holds. */
export const PAGE_SIZE = 100;
/** How often arrived records are drawn, in milliseconds. */
const FLUSH_INTERVAL = 250;
/** How often the server sends what arrived (`coalesce=` of the record stream). */
const STREAM_INTERVAL = "250ms";

/** The list's columns. */
const COLUMNS = ["Seq", "Time", "Token", "Topic", "Type", "Pri", "APNs", "Phone", "Content"];

/** One row's cells from a summary (a record of another kind has only `sequence`, `kind` and `receivedAt`). */
function rowCells(summary) {
    const seq = String(summary.sequence);
    const other = summary.kind && summary.kind !== "push";
    const status = summary.status ?? null;
    const answer = other ? "-" : answerText(status, summary.reason);
    const answerClass = other ? "" : status == null ? "noanswer" : summary.accepted ? "accepted" : "rejected";
    const device = summary.device ?? null;
    return [
        h("td", { class: "seq" }, h("a", { href: `/push/${seq}`, attrs: { tabindex: "-1" } }, `#${seq}`),
            summary.replayOf != null
                ? h("span", { class: "tag", title: `replay of #${summary.replayOf}` }, "replay") : null),
        h("td", { class: "time" },
            h("time", { attrs: { datetime: summary.receivedAt } }, timeOfDay(summary.receivedAt))),
        h("td", { class: "token", title: summary.token ?? "" }, other ? "-" : shortToken(summary.token)),
        h("td", { class: "topic", title: summary.topic ?? "" }, other ? "-" : (summary.topic ?? "-")),
        h("td", { class: "type" }, other ? summary.kind : (summary.pushType ?? "-")),
        h("td", { class: "priority" }, other ? "" : (summary.priority ?? "")),
        h("td", { class: `answer ${answerClass}`, title: summary.rule ?? "" }, answer),
        h("td", { class: `phone ${device ?? ""} tone-${outcomeTone(device)}` }, device && summary.token ?
            h("a", { href: `/phones/${encodeURIComponent(summary.token)}`, testid: "device-link",
                title: "what the phone did: open the phone", attrs: { tabindex: "-1" } }, device) : (device ?? "")),
        h("td", { class: "content" }, other ? "" : (summary.text ?? ""),
            summary.notes ? h("span", { class: "notes", title: `${summary.notes} note(s)` }, ` ✱${summary.notes}`) :
            null),
    ];
}

/** The list of pushes: a persistent view, so that coming back from a push keeps the reader's place. */
export class PushesView {
    constructor(context) {
        this.context = context;
        this.list = new LiveList(PAGE_SIZE);
        this.root = null;
        this.query = null;
        this.older = null;
        this.stream = null;
        this.following = true;
        this.selected = null;
        this.attached = false;
        this.journal = null;
        this.newerStack = [];
        this.scrollY = 0;
        this.timer = null;
        this.streamState = "connecting";
    }

    async mount(main, route) {
        const older = route.older ?? null;
        const same = this.root && this.query === route.q && this.older === older;
        this.attached = true;
        this.context.listURL = routeURL({ view: "pushes", q: route.q, older: older ?? undefined });
        if (same) {
            replace(main, this.root);
            window.scrollTo(0, this.scrollY);
            if (this.context.cameFrom != null) this.select(this.context.cameFrom, { focus: true });
            this.flush();
            return;
        }
        if (this.query === route.q && older != null && this.older !== older) {
            if (this.older == null || Number(older) < Number(this.older)) this.newerStack.push(this.older);
            else this.newerStack.pop();
        } else if (this.query !== route.q || older == null) {
            this.newerStack = [];
        }
        this.query = route.q;
        this.older = older;
        this.build();
        replace(main, this.root);
        window.scrollTo(0, 0);
        await this.reload();
        if (this.context.cameFrom != null) this.select(this.context.cameFrom, { focus: true });
    }

    unmount() {
        this.attached = false;
        this.scrollY = window.scrollY;
    }

    build() {
        this.tbody = h("tbody", {});
        this.pill = h("button", {
            class: "pill",
            type: "button",
            testid: "new-pill",
            hidden: true,
            on: { click: () => this.showNewest() },
        });
        this.followButton = h("button", {
            type: "button",
            testid: "follow",
            attrs: { "aria-pressed": String(this.following) },
            on: { click: () => this.setFollowing(!this.following) },
        }, this.following ? "Pause" : "Follow");
        this.info = h("p", { class: "journal-info", testid: "journal-info" });
        this.empty = h("p", { class: "empty", testid: "empty", hidden: true });
        this.olderButton = h("button", { type: "button", testid: "older", on: { click: () => this.goOlder() } },
            "Older →");
        this.newerButton = h("button", { type: "button", testid: "newer", on: { click: () => this.goNewer() } },
            "← Newer");
        this.newestButton = h("button", { type: "button", on: { click: () => this.showNewest() } }, "Newest");
        const heading = this.query ? `Pushes matching ${this.query}` : "Pushes";
        this.root = h("section", { class: "pushes", attrs: { "aria-labelledby": "pushes-title" } },
            h("div", { class: "toolbar" },
                h("h1", { id: "pushes-title" }, heading),
                this.followButton,
                this.newestButton),
            this.pill,
            h("table", { class: "rows", testid: "push-list", attrs: { "aria-describedby": "pushes-title" } },
                h("thead", {}, h("tr", {}, COLUMNS.map((name) => h("th", { attrs: { scope: "col" } }, name)))),
                this.tbody),
            this.empty,
            h("nav", { class: "pager", attrs: { "aria-label": "Pages" } }, this.newerButton, this.olderButton),
            this.info);
        if (!this.scrollListener) {
            this.scrollListener = () => {
                if (this.attached && this.atTop() && this.list.pending > 0 && this.following && this.older ==
                    null) {
                    this.showNewest();
                }
            };
            window.addEventListener("scroll", this.scrollListener, { passive: true });
        }
    }

    /**
     * Loads the page the URL names and follows what arrives after it: the stream starts again from the page's
     * newest record, so that its counts are of records the page has not shown. Answers false when the query is
     * refused (nothing is followed then).
     */
    async reload() {
        this.stopStream();
        const loaded = await this.load();
        if (loaded) this.startStream();
        return loaded;
    }

    /** Loads the page the URL names; answers false when the query is refused. */
    async load() {
        const params = new URLSearchParams({ view: "summary", limit: String(PAGE_SIZE) });
        if (this.query) params.set("q", this.query);
        if (this.older != null) params.set("olderThan", this.older);
        this.showSearchError(null);
        let answer;
        try {
            answer = await api(`/v1/requests?${params}`);
        } catch (error) {
            if (error instanceof ApiError && error.status === 400 && this.query && /^q:/.test(error.message)) {
                this.showSearchError(error.message);
                this.list.load([]);
                this.draw();
                return false;
            }
            throw error;
        }
        this.journal = answer.journal ?? null;
        this.list.load(answer.records ?? []);
        if (this.journal?.newest != null) this.list.newestSeen = Number(this.journal.newest);
        this.draw();
        return true;
    }

    showSearchError(message) {
        const box = document.getElementById("search-error");
        const input = this.context.searchInput;
        if (!message) {
            box.hidden = true;
            replace(box);
            input.removeAttribute("aria-invalid");
            return;
        }
        const place = queryErrorPlace(message, this.query);
        box.hidden = false;
        input.setAttribute("aria-invalid", "true");
        if (place) {
            replace(box, h("span", {}, "The search cannot be read: "),
                h("code", { class: "query" }, this.query.slice(0, place.start),
                    h("mark", { testid: "search-error-word" }, place.word), this.query.slice(place.end)),
                h("span", { class: "message" }, ` — ${message}`));
            input.setSelectionRange(place.start, place.end);
        } else {
            replace(box, h("span", {}, "The search cannot be read: "), h("span", { class: "message" }, message));
        }
    }

    startStream() {
        this.stopStream();
        if (this.context.info.mode === "file") {
            this.context.setBadge("file", `read-only, from ${this.context.info.file ?? "a journal file"}`);
            return;
        }
        const params = new URLSearchParams({ view: "summary", coalesce: STREAM_INTERVAL, limit: String(PAGE_SIZE) });
        if (this.query) params.set("q", this.query);
        this.stream = follow(`/v1/requests/stream?${params}`, {
            lastEventId: this.list.newestSequence ?? 0,
            onEvent: (event) => {
                if (event.event !== "page") return;
                let page;
                try {
                    page = JSON.parse(event.data);
                } catch {
                    this.context.showError(
                        "The record stream sent an event that is not JSON; the list may miss records.");
                    return;
                }
                if (this.list.receivePage(page) && page.journal) this.journal = page.journal;
            },
            onState: (state, detail) => {
                const wasDown = this.streamState === "reconnecting" ||
                    (this.streamState === "connecting" && this.dropped);
                if (state === "reconnecting") this.dropped = true;
                this.streamState = state;
                if (state === "live" && wasDown) {
                    this.dropped = false;
                    this.resync();
                }
                if (state === "live") this.context.setBadge("live",
                    "new records arrive as they are recorded");
                else if (state === "reconnecting") this.context.setBadge("reconnecting",
                    `the stream dropped: ${detail}; trying again`);
                else if (state === "failed") {
                    this.context.setBadge("off", detail);
                    this.context.showError(`The live list stopped: ${detail}`);
                } else this.context.setBadge("connecting");
            },
        });
        this.timer = setInterval(() => this.flush(), FLUSH_INTERVAL);
    }

    /**
     * After the stream came back: a server that restarted with a new journal numbers its records from 1 again, and
     * the stream (which resumes after the last id seen) would skip them, so the list is loaded again from it.
     */
    async resync() {
        try {
            const answer = await api("/v1/requests?view=summary&limit=1");
            if (!this.list.startedOver(answer.journal)) return;
            await this.reload();
            this.context.toast("The server's journal started over (a restart): the list shows it as it is now.");
        } catch (error) {
            this.context.showError(error.message);
        }
    }

    stopStream() {
        this.stream?.stop();
        this.stream = null;
        clearInterval(this.timer);
        this.timer = null;
    }

    atTop() {
        return window.scrollY < 40;
    }

    isFollowing() {
        return this.attached && this.following && this.older == null && this.atTop() && !document.hidden;
    }

    flush() {
        const { added, dropped, replaced } = this.list.flush(this.isFollowing());
        if (replaced) {
            // More arrived than a page: the rows become the newest page (the ones in between are Older →).
            replace(this.tbody, this.list.rows.map((summary) => this.row(summary)));
        } else if (added) {
            const first = this.tbody.firstChild;
            for (let i = 0; i < added; i++) this.tbody.insertBefore(this.row(this.list.rows[i]), first);
            for (let i = 0; i < dropped; i++) this.tbody.lastChild?.remove();
        }
        if (added) {
            this.drawInfo();
            this.empty.hidden = this.list.rows.length > 0;
        }
        const pending = this.list.pending;
        this.pill.hidden = pending === 0;
        replace(this.pill, pending === 1 ? "1 new push ↑" : `${count(pending)} new pushes ↑`);
    }

    row(summary) {
        const seq = String(summary.sequence);
        const rejected = summary.accepted === false;
        return h("tr", {
            testid: "push-row",
            data: { seq },
            class: rejected ? "rejected" : "",
            attrs: { tabindex: "-1", "aria-selected": String(this.selected === seq) },
            on: {
                click: (event) => {
                    if (event.target.closest("a")) return;
                    this.open(seq);
                },
            },
        }, rowCells(summary));
    }

    draw() {
        replace(this.tbody, this.list.rows.map((summary) => this.row(summary)));
        this.empty.hidden = this.list.rows.length > 0;
        if (this.query) replace(this.empty, `No record matches ${this.query}.`);
        else if (this.older != null) replace(this.empty, `No record older than #${this.older}.`);
        else replace(this.empty, "No pushes yet. Send one: the curl command that mock-apns serve printed, or ",
            h("code", {}, "mock-apns push TOKEN --alert Hello"), ".");
        this.newerButton.hidden = this.older == null;
        this.flush();
        this.drawInfo();
    }

    drawInfo() {
        const rows = this.list.rows;
        const parts = [];
        if (rows.length) parts.push(
            `Showing #${rows[rows.length - 1].sequence}–#${rows[0].sequence} (${count(rows.length)} rows)`);
        const j = this.journal;
        if (j) {
            if (j.held != null) parts.push(`the journal holds ${count(j.held)} record${j.held === 1 ? "" : "s"}`);
            if (j.dropped) parts.push(`oldest ${count(j.dropped)} dropped by the journal's limit`);
        }
        replace(this.info, parts.join(" · "));
        const oldestHeld = j?.oldest ?? null;
        const lastRow = this.list.oldestRow;
        const atOldest = oldestHeld != null ? Number(lastRow) <= Number(oldestHeld) : rows.length < PAGE_SIZE;
        this.olderButton.disabled = lastRow == null || atOldest;
    }

    setFollowing(on) {
        this.following = on;
        this.followButton.setAttribute("aria-pressed", String(on));
        replace(this.followButton, on ? "Pause" : "Follow");
        if (on && this.list.pending > 0 && this.atTop() && this.older == null) this.showNewest();
    }

    showNewest() {
        window.scrollTo(0, 0);
        const url = routeURL({ view: "pushes", q: this.query });
        if (this.older != null) this.context.navigate(url);
        else {
            this.reload().then(() => this.context.toast("Showing the newest pushes."),
                (error) => this.context.showError(error.message));
        }
    }

    goOlder() {
        const cursor = this.list.oldestRow;
        if (cursor == null) return;
        this.context.navigate(routeURL({ view: "pushes", q: this.query, older: String(cursor) }));
    }

    goNewer() {
        const previous = this.newerStack.length ? this.newerStack[this.newerStack.length - 1] : null;
        this.context.navigate(routeURL({ view: "pushes", q: this.query, older: previous ?? undefined }));
    }

    open(seq) {
        this.select(seq);
        this.context.cameFrom = seq;
        this.context.navigate(`/push/${seq}`);
    }

    select(seq, { focus = true } = {}) {
        const target = this.tbody.querySelector(`tr[data-seq="${CSS.escape(String(seq))}"]`);
        if (!target) return false;
        for (const row of this.tbody.querySelectorAll('tr[aria-selected="true"]')) row.setAttribute("aria-selected",
            "false");
        target.setAttribute("aria-selected", "true");
        this.selected = String(seq);
        if (focus) {
            target.focus({ preventScroll: true });
            target.scrollIntoView({ block: "nearest" });
        }
        return true;
    }

    move(step) {
        const rows = [...this.tbody.querySelectorAll("tr[data-seq]")];
        if (!rows.length) return;
        const index = rows.findIndex((row) => row.dataset.seq === this.selected);
        const next = index < 0 ? 0 : Math.min(rows.length - 1, Math.max(0, index + step));
        this.select(rows[next].dataset.seq);
    }

    /** j/k move, Enter opens, c copies as curl, r replays the selected row. */
    key(event) {
        switch (event.key) {
            case "j":
                this.move(1);
                return true;
            case "k":
                this.move(-1);
                return true;
            case "Enter":
                if (this.selected == null) return false;
                this.open(this.selected);
                return true;
            case "c":
                if (this.selected == null) return false;
                this.context.actions.copyCurl(this.selected);
                return true;
            case "r":
                if (this.selected == null) return false;
                this.context.actions.replay(this.selected);
                return true;
            default:
                return false;
        }
    }
}
