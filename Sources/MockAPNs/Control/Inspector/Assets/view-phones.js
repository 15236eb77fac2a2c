// The Phones views: `/phones` lists the simulated phones (GET /v1/phones); `/phones/{id}` shows one as its person
// would — its state, each app's state, settings and notification list grouped by thread, the badge, the held and
// stored pushes, the background budget — with its changes and pushes on a timeline, and changes it through the same
// PATCH and restart routes a script uses (docs/control-api.md "Phones").
import { api, follow } from "./api.js";
import { h, replace, facts } from "./dom.js";
import { count, duration, shortToken, timeOfDay } from "./format.js";
import { changeLines, eventText, filterPhones, focusText, journalPhones, lastChanges, notificationSender, outcomeTone,
    phoneRow, senderInitials, threadGroups, timelineEntries } from "./phones.js";

/** Rows of the phone list on a page: the most the DOM holds, however many phones there are. */
const PAGE_SIZE = 100;
/** The notifications drawn per app (the phone keeps up to 1,000; GET /v1/phones/{id} has them all). */
const NOTIFICATIONS_DRAWN = 100;
/** How many of the newest `phone` and `device-event` records the views read. */
const RECORDS_READ = 500;
/** How many of the newest `phone` records the list reads for its "Last change" column (small records). */
const CHANGES_READ = 2000;
/** How many of a phone's tokens the timeline reads the pushes of, and how many pushes per token. */
const TOKENS_READ = 10;
const PUSHES_PER_TOKEN = 100;
/** The soonest a phone is drawn again after a record concerning it arrives, in milliseconds. */
const REFRESH_DELAY = 1000;
/** How often the server says what arrived (`coalesce=` of the record stream): the refresh waits a second anyway. */
const STREAM_INTERVAL = "500ms";
/** The states an app can be put in from the page (phone.md §2). */
const APP_STATES = ["foreground", "background", "notRunning", "forceQuit"];

const phoneURL = (id) => `/phones/${encodeURIComponent(id)}`;

/** The newest `limit` records matching `q` (full records), or none when the server cannot answer that search. */
async function recordsMatching(q, limit = RECORDS_READ, extra = {}) {
    try {
        const params = new URLSearchParams({ limit: String(limit), ...extra });
        if (q) params.set("q", q);
        return await api(`/v1/requests?${params}`);
    } catch {
        return { records: [], journal: null };
    }
}

function yesNo(value) {
    return value ? "yes" : "no";
}

/** A communication notification's sender as the phone shows them, above the text: an avatar and their name. */
function senderLine(notification) {
    const sender = notificationSender(notification);
    if (!sender) return null;
    return h("span", { class: "sender", attrs: { title: `A communication notification from ${sender}` } },
        h("span", { class: "avatar", attrs: { "aria-hidden": "true" } }, senderInitials(sender)),
        h("span", { class: "sender-name", testid: "notification-sender" }, sender));
}

/** The list of phones. */
export class PhonesView {
    constructor(context) {
        this.context = context;
        this.offset = 0;
        this.filter = "";
        this.selected = null;
    }

    async mount(main) {
        this.main = main;
        replace(main, h("p", { class: "loading" }, "Loading the phones…"));
        let answer;
        let changes;
        let pushes;
        try {
            [answer, changes, pushes] = await Promise.all([api("/v1/phones"), recordsMatching("kind:phone",
                CHANGES_READ),
                recordsMatching("kind:push", RECORDS_READ, { view: "summary" })]);
        } catch (error) {
            replace(main, h("h1", {}, "Phones"), h("p", { class: "empty", testid: "not-available" },
                `The phones are not available: ${error.message}`));
            return;
        }
        const listed = (answer.phones ?? []).map(phoneRow);
        this.rows = [...listed, ...journalPhones(pushes.records, listed)];
        this.changes = lastChanges(changes.records);
        this.tbody = h("tbody", {});
        this.info = h("p", { class: "journal-info", testid: "phone-list-info" });
        this.previous = h("button", { type: "button", testid: "phones-previous", on: { click: () => this.page(-1) } },
            "← Previous");
        this.next = h("button", { type: "button", testid: "phones-next", on: { click: () => this.page(1) } },
            "Next →");
        const filter = h("input", { type: "search", value: this.filter, testid: "phone-filter",
            placeholder: "Filter by id or token", attrs: { "aria-label": "Filter the phones by id or token" },
            on: { input: (event) => { this.filter = event.target.value; this.offset = 0; this.draw(); } } });
        replace(main, h("section", { class: "phones", attrs: { "aria-labelledby": "phones-title" } },
            h("div", { class: "toolbar" }, h("h1", { id: "phones-title" }, "Phones"), filter),
            h("p", { class: "hint" }, "Each simulated phone: the ones the scenario declares, then one per device " +
                "token the mock keeps state for or a push reached (implicit: a token's own default phone). Open " +
                "one to see what its person sees and to change it."),
            h("table", { class: "rows", testid: "phone-list" },
                h("thead", {}, h("tr", {}, ["Phone", "Kind", "Online", "Locked", "Focus", "Apps",
                    "Notifications", "Last change"].map((name) => h("th", { attrs: { scope: "col" } }, name)))),
                this.tbody),
            h("nav", { class: "pager", attrs: { "aria-label": "Pages" } }, this.previous, this.next),
            this.info));
        this.draw();
    }

    draw() {
        const matching = filterPhones(this.rows, this.filter);
        const lastPage = Math.max(0, Math.floor((matching.length - 1) / PAGE_SIZE) * PAGE_SIZE);
        this.offset = Math.max(0, Math.min(this.offset, lastPage));
        const page = matching.slice(this.offset, this.offset + PAGE_SIZE);
        replace(this.tbody, page.map((row) => h("tr", { testid: "phone-row",
                data: { id: row.id, kind: row.kind, source: row.source ?? "phones" },
                title: row.source === "journal" ? "a push reached it; the mock keeps nothing for it yet, so it is " +
                    "the default phone" : null,
                attrs: { tabindex: "-1", "aria-selected": String(this.selected === row.id) },
                on: { click: (event) => { if (!event.target.closest("a")) this.open(row.id); } } },
            h("td", {}, h("a", { href: phoneURL(row.id), title: row.tokens.join(" ") }, shortToken(row.id))),
            h("td", {}, row.kind),
            h("td", { class: row.online ? "" : "bad" }, row.online ? "online" : "offline"),
            h("td", {}, yesNo(row.locked)),
            h("td", {}, row.focus),
            h("td", {}, row.apps == null ? "-" : String(row.apps)),
            h("td", {}, row.notifications == null ? "-" : count(row.notifications)),
            h("td", { title: this.changes.has(row.id) ? this.changes.get(row.id) :
                `no change among the newest ${count(CHANGES_READ)} phone records` },
            this.changes.has(row.id) ? timeOfDay(this.changes.get(row.id)) : "-"))));
        const total = this.rows.length;
        const showing = page.length ?
            `Phones ${count(this.offset + 1)}–${count(this.offset + page.length)} of ${count(matching.length)}` :
            total ? `No phone matches ${this.filter}.` : "No phone yet: declare one under phones: in the scenario, " +
            "or send a push (each token gets a phone of its own).";
        replace(this.info, matching.length === total ? showing : `${showing} (of ${count(total)} phones)`);
        this.previous.disabled = this.offset === 0;
        this.next.disabled = this.offset + PAGE_SIZE >= matching.length;
    }

    page(step) {
        this.offset += step * PAGE_SIZE;
        this.draw();
    }

    open(id) {
        this.selected = id;
        this.context.navigate(phoneURL(id));
    }

    /** j/k move, Enter opens the selected phone. */
    key(event) {
        const rows = [...this.tbody.querySelectorAll("tr[data-id]")];
        if (event.key === "Enter") {
            if (this.selected == null) return false;
            this.open(this.selected);
            return true;
        }
        if ((event.key !== "j" && event.key !== "k") || !rows.length) return false;
        const index = rows.findIndex((row) => row.dataset.id === this.selected);
        const next = index < 0 ? 0 : Math.min(rows.length - 1, Math.max(0, index + (event.key === "j" ? 1 : -1)));
        for (const row of rows) row.setAttribute("aria-selected", String(row === rows[next]));
        this.selected = rows[next].dataset.id;
        rows[next].focus();
        return true;
    }
}

/** One phone. */
export class PhoneView {
    constructor(context) {
        this.context = context;
        this.timer = null;
        this.stream = null;
        this.busy = false;
    }

    async mount(main, route) {
        this.main = main;
        this.id = route.id;
        this.answer = h("p", { class: "phone-answer", testid: "phone-answer", attrs: { role: "status" } });
        this.error = h("p", { class: "phone-error", testid: "phone-error", attrs: { role: "alert" }, hidden: true });
        replace(main, h("p", { class: "loading" }, "Loading the phone…"));
        await this.refresh();
    }

    unmount() {
        this.stream?.stop();
        this.stream = null;
        clearTimeout(this.timer);
        this.timer = null;
        this.gone = true;
    }

    /** Reads the phone and its records again and draws them, keeping the focus where it was. */
    async refresh() {
        let phone;
        try {
            phone = await api(`/v1/phones/${encodeURIComponent(this.id)}`);
        } catch (error) {
            if (this.context.info.mode === "file" && error.status === 404) {
                // A journal file has the phone's changes and pushes, not its state: the timeline is still drawn.
                phone = { id: this.id, declared: false, tokens: [this.id.toLowerCase()], state: null, apps: [],
                    background: null, fromFile: true };
            } else {
                this.notFound(error);
                return;
            }
        }
        const tokens = (phone.tokens ?? []).slice(0, TOKENS_READ);
        const [changes, events, ...pushes] = await Promise.all([
            recordsMatching("kind:phone"),
            recordsMatching("kind:device-event"),
            ...tokens.map((token) => recordsMatching("kind:push", PUSHES_PER_TOKEN, { token })),
        ]);
        if (this.gone) return;
        this.phone = phone;
        const entries = timelineEntries({
            records: changes.records.filter((record) => record.phone === phone.id),
            pushes: pushes.flatMap((answer) => answer.records),
            events: events.records,
        });
        const focused = document.activeElement;
        const focusKey = focused?.dataset?.testid ?
            [focused.dataset.testid, focused.closest("[data-bundle]")?.dataset.bundle ?? null] : null;
        this.draw(phone, entries);
        if (focusKey && this.main.contains(focused) === false) {
            const [testid, bundle] = focusKey;
            const scope = bundle ? this.main.querySelector(`[data-bundle="${CSS.escape(bundle)}"]`) : this.main;
            scope?.querySelector(`[data-testid="${CSS.escape(testid)}"]`)?.focus();
        }
        const newest = [changes, events, ...pushes].map((answer) => answer.journal?.newest).find((n) => n != null);
        if (!this.stream && this.context.info.mode !== "file") this.follow(newest ?? 0, phone);
    }

    /** Esc goes back to the list of phones. */
    key(event) {
        if (event.key !== "Escape") return false;
        this.context.navigate("/phones");
        return true;
    }

    notFound(error) {
        replace(this.main, h("nav", { class: "crumbs" }, h("a", { href: "/phones" }, "← Phones")),
            h("h1", {}, "Phone"), h("p", { class: "empty", testid: "not-found" }, error.message));
    }

    /**
     * Draws the phone again when a record about it arrives (its pushes, phone changes, device events): the coalesced
     * stream says a few times a second what arrived; more than its page counts as ours, since the page cannot tell.
     */
    follow(since, phone) {
        this.stream = follow(`/v1/requests/stream?view=summary&coalesce=${STREAM_INTERVAL}&limit=100`, {
            lastEventId: since,
            onEvent: (event) => {
                if (event.event !== "page") return;
                let page;
                try {
                    page = JSON.parse(event.data);
                } catch {
                    return;
                }
                const records = Array.isArray(page.records) ? page.records : [];
                const tokens = this.phone?.tokens ?? phone.tokens ?? [];
                const isOurs = (summary) => summary.kind !== "push" ||
                    tokens.includes(String(summary.token ?? "").toLowerCase());
                const ours = Number(page.matched) > records.length || records.some(isOurs);
                if (ours && this.timer == null) {
                    this.timer = setTimeout(() => {
                        this.timer = null;
                        this.refresh().catch((error) => this.context.showError(error.message));
                    }, REFRESH_DELAY);
                }
            },
            onState: () => {},
        });
    }

    draw(phone, entries) {
        document.title = `Phone ${phone.id} · mock-apns inspector`;
        const readOnly = this.context.info.readOnly;
        replace(this.main,
            h("nav", { class: "crumbs", attrs: { "aria-label": "Breadcrumb" } },
                h("a", { href: "/phones", testid: "back" }, "← Phones")),
            h("div", { class: "toolbar" },
                h("h1", {}, "Phone ", h("span", { testid: "phone-id" }, phone.id), " ",
                    h("small", { testid: "phone-kind" }, phone.declared ? "declared" : "implicit")),
                h("a", { href: `/?q=${encodeURIComponent(`token:${(phone.tokens ?? [])[0] ?? ""}`)}` },
                    "Its pushes")),
            readOnly ? h("p", { class: "hint read-only-reason", testid: "phone-readonly" },
                "Read-only: this inspector shows a journal file (mock-apns inspect), so the phone cannot be " +
                "changed from here.") : null,
            this.answer, this.error,
            h("div", { class: "cards" }, this.stateCard(phone, readOnly),
                phone.fromFile ? null : this.backgroundCard(phone)),
            h("h2", {}, "Apps"),
            (phone.apps ?? []).length ? (phone.apps ?? []).map((app) => this.appCard(app, readOnly)) :
            h("p", { class: "hint" }, "No app has state or notifications on this phone yet."),
            this.appForm(readOnly),
            h("h2", {}, "Timeline"),
            this.timeline(entries));
    }

    stateCard(phone, readOnly) {
        if (phone.fromFile) {
            return h("section", { class: "card phone-state", testid: "phone-state",
                    attrs: { "aria-label": "The phone's state" } },
                h("h2", {}, "State"),
                h("p", { class: "hint" }, "A journal file holds the phone's changes and pushes (the timeline below), " +
                    "not its state: GET /v1/phones belongs to the running mock that wrote it."));
        }
        const state = phone.state ?? {};
        const online = state.online !== false;
        const focusName = h("input", { type: "text", value: state.focus?.name ?? "Do Not Disturb", size: 16,
            testid: "focus-name", attrs: { "aria-label": "Focus name" } });
        const button = (testid, label, fields) => h("button", { type: "button", testid, disabled: readOnly,
            on: { click: () => this.change(fields(), null) } }, label);
        return h("section", { class: `card phone-state ${online ? "" : "offline"}`, testid: "phone-state",
                attrs: { "aria-label": "The phone's state" } },
            h("h2", {}, "State"),
            facts([
                ["online", h("span", { testid: "phone-online-state" }, online ? "online" : "offline")],
                ["locked", h("span", { testid: "phone-locked-state" }, yesNo(state.locked))],
                ["Focus", h("span", { testid: "phone-focus-state" }, focusText(state.focus))],
                ["Low Power Mode", yesNo(state.lowPowerMode)],
                ["Scheduled Summary", yesNo(state.scheduledSummary)],
                ["call active", yesNo(state.callActive)],
                ["tokens", (phone.tokens ?? []).length ? (phone.tokens ?? []).map((token) => [h("code",
                    { title: token }, shortToken(token)), " "]) : "none"],
            ]),
            h("div", { class: "buttons", attrs: { role: "group", "aria-label": "Change the phone" } },
                button("phone-online", online ? "Take offline" : "Bring online", () => ({ online: !online })),
                button("phone-lock", state.locked ? "Unlock" : "Lock", () => ({ locked: !state.locked })),
                button("phone-low-power", state.lowPowerMode ? "Low Power Mode off" : "Low Power Mode on",
                    () => ({ lowPowerMode: !state.lowPowerMode })),
                h("form", { class: "focus-form", on: { submit: (event) => { event.preventDefault();
                            this.change({ focus: { name: focusName.value.trim() } }, null); } } },
                    focusName, h("button", { type: "submit", testid: "focus-on", disabled: readOnly }, "Focus on")),
                button("focus-off", "Focus off", () => ({ focus: null })),
                h("button", { type: "button", testid: "phone-restart", disabled: readOnly,
                    attrs: { title: "POST /v1/phones/{id}/restart: force-quit and foreground apps become notRunning" },
                    on: { click: () => this.restart() } }, "Restart")));
    }

    backgroundCard(phone) {
        const background = phone.background ?? {};
        const window = typeof background.window === "number" ? duration(background.window) : background.window;
        return h("section", { class: "card", testid: "phone-background", attrs: { "aria-label": "Background budget" } },
            h("h2", {}, "Background budget"),
            facts([
                ["background pushes in the last hour", count(background.pushesLastHour ?? 0)],
                ["launches counted", `${count(background.launchesInWindow ?? 0)}${window ? ` in ${window}` : ""}`],
                ["budget", background.budget == null ? "unlimited (simulation.backgroundBudget)" :
                    `${count(background.budget)} launches`],
            ]),
            (background.pushesLastHour ?? 0) > 3 ? h("p", { class: "hint" },
                "Over 3 background pushes in an hour: iOS may stop launching the app (background-over-rate).") :
            null);
    }

    appCard(app, readOnly) {
        const settings = app.settings ?? {};
        // `inSummary` is the one setting whose default is off (phone.md §2): it is shown when on.
        const off = Object.entries(settings).filter(([name, value]) => value === false && name !== "inSummary")
            .map(([name]) => name);
        const select = h("select", { testid: "app-state", attrs: { "aria-label": `state of ${app.bundleID}` } },
            APP_STATES.map((state) => h("option", { value: state, selected: state === app.state }, state)));
        const patch = (fields) => this.change(fields, app.bundleID);
        return h("section", { class: "card app", testid: "phone-app", data: { bundle: app.bundleID },
                attrs: { "aria-label": app.bundleID } },
            h("h3", {}, app.bundleID),
            facts([
                ["state", h("span", { testid: "app-state-now", class: app.state === "forceQuit" ? "bad" : "" },
                    app.state)],
                ["installed", app.installed === false ? "no" : null],
                ["authorization", app.authorization],
                ["settings off", off.length ? off.join(", ") : "none"],
                ["in the Scheduled Summary", settings.inSummary === true ? "yes" : null],
                ["previews", settings.showPreviews],
                ["Background App Refresh", app.backgroundAppRefresh === false ? "off" : "on"],
                ["VoIP failures", app.voipFailures ? String(app.voipFailures) : null],
                ["location", app.locationAuthorization && app.locationAuthorization !== "always" ?
                    app.locationAuthorization : null],
                ["Push to Talk channel", app.pttChannel === "left" ? "left" : null],
                ["complication", app.complicationOnFace === false ? "not on the watch face" : null],
                ["last opened", app.lastOpened ? h("span", { testid: "app-last-opened", title: app.lastOpened },
                    app.lastOpened) : null],
                ["badge", h("span", { testid: "app-badge" }, app.badge == null ? "none" : String(app.badge))],
                ["held background push", app.held ? h("span", { testid: "app-held" },
                    app.held.sequence != null ?
                    h("a", { href: `/push/${app.held.sequence}` }, `#${app.held.sequence}`) : "a push",
                    ` since ${timeOfDay(app.held.at)} (${app.held.rule})`) : null],
            ]),
            this.stored(app),
            h("div", { class: "buttons", attrs: { role: "group", "aria-label": `Change ${app.bundleID}` } },
                h("button", { type: "button", testid: "app-force-quit", disabled: readOnly || app.state === "forceQuit",
                    on: { click: () => patch({ state: "forceQuit" }) } }, "Force-quit"),
                h("button", { type: "button", testid: "app-open", disabled: readOnly || app.state === "foreground",
                    on: { click: () => patch({ state: "foreground" }) } }, "Open (foreground)"),
                h("form", { on: { submit: (event) => { event.preventDefault(); patch({ state: select.value }); } } },
                    select,
                    h("button", { type: "submit", testid: "app-state-apply", disabled: readOnly }, "Set state"))),
            this.notifications(app));
    }

    stored(app) {
        const stored = Array.isArray(app.stored) ? app.stored : [];
        if (!stored.length) return null;
        return h("div", { class: "stored", testid: "app-stored" },
            h("h3", {}, "Stored by APNs until the phone is online"),
            h("ul", {}, stored.map((item) => h("li", { data: { seq: String(item.sequence ?? "") } },
                h("a", { href: `/push/${item.sequence}` }, `#${item.sequence}`),
                item.storedAt ? ` stored ${timeOfDay(item.storedAt)}` : "",
                item.expiresAt ? `, expires ${timeOfDay(item.expiresAt)}` : ", no expiry",
                item.slot ? ` (slot ${item.slot})` : ""))));
    }

    notifications(app) {
        const list = Array.isArray(app.notifications) ? app.notifications : [];
        const total = app.notificationCount ?? list.length;
        if (!list.length) {
            return h("p", { class: "hint", testid: "phone-notifications" }, "No notification on the list.");
        }
        const drawn = list.slice(0, NOTIFICATIONS_DRAWN);
        const threads = Array.isArray(app.threads) ? app.threads : [];
        return h("div", { class: "notification-list", testid: "phone-notifications" },
            h("h3", {}, `Notification Center: ${count(total)} notification${total === 1 ? "" : "s"}`,
                total > drawn.length ? ` (the newest ${drawn.length} shown)` : "",
                threads.length ? `, ${count(threads.length)} thread${threads.length === 1 ? "" : "s"}` : ""),
            threadGroups(drawn).map((group) => h("div", { class: group.thread ? "thread" : "thread single",
                    testid: "notification-group", data: { thread: group.thread ?? "" } },
                group.thread ? h("p", { class: "thread-name" }, `thread ${group.thread} · ${group.items.length}`) :
                null,
                h("ol", { class: "notifications" }, group.items.map((n) => h("li", {
                        class: `notification tone-${outcomeTone(n.outcome)}`, testid: "notification",
                        data: { seq: String(n.sequence), outcome: n.outcome, sender: notificationSender(n) } },
                    h("div", { class: "meta" }, h("a", { href: `/push/${n.sequence}` }, `#${n.sequence}`), " ",
                        h("time", { attrs: { datetime: n.at } }, timeOfDay(n.at)), " ",
                        h("span", { class: `outcome tone-${outcomeTone(n.outcome)}` }, n.outcome),
                        n.collapseID ? h("span", { class: "hint" }, ` collapse-id ${n.collapseID}`) : null),
                    senderLine(n),
                    n.title ? h("strong", { class: "title" }, n.title) : null,
                    n.subtitle ? h("span", { class: "subtitle" }, n.subtitle) : null,
                    n.body ? h("span", { class: "body" }, n.body) : null))))));
    }

    appForm(readOnly) {
        const bundle = h("input", { type: "text", size: 28, placeholder: "com.example.app", testid: "app-bundle",
            attrs: { "aria-label": "bundle id" } });
        // A text field with the states as suggestions: the server is the judge of a state, and says why it refuses.
        const state = h("input", { type: "text", size: 12, value: "background", testid: "app-bundle-state",
            attrs: { "aria-label": "state", list: "app-states" } });
        const submit = (event) => {
            event.preventDefault();
            if (!bundle.value.trim()) {
                this.showRefusal("Type the app's bundle id first, such as com.example.app.");
                return;
            }
            this.change({ state: state.value.trim() }, bundle.value.trim());
        };
        return h("form", { class: "app-form", testid: "app-form", on: { submit } },
            h("label", {}, "Another app on this phone: ", bundle), " ", state,
            h("datalist", { id: "app-states" }, APP_STATES.map((name) => h("option", { value: name }))), " ",
            h("button", { type: "submit", testid: "app-apply", disabled: readOnly }, "Set its state"));
    }

    timeline(entries) {
        if (!entries.length) {
            return h("p", { class: "hint", testid: "phone-timeline" },
                "Nothing yet: the phone's state changes, its pushes and what happened to them later show here.");
        }
        return h("ol", { class: "timeline phone-timeline", testid: "phone-timeline" }, entries.map((entry) => {
            const record = entry.record;
            const common = { testid: "phone-timeline-entry", data: { kind: entry.kind, seq: String(entry.sequence) } };
            const when = h("time", { attrs: { datetime: entry.at } }, timeOfDay(entry.at));
            const link = h("a", { href: `/push/${entry.sequence}` }, `#${entry.sequence}`);
            if (entry.kind === "change") {
                return h("li", { class: "step change", ...common }, when, " ",
                    h("span", { class: "event" }, "changed"), " ", link,
                    h("ul", { class: "change-lines" }, changeLines(record).map((line) => h("li", {}, line))));
            }
            if (entry.kind === "event") {
                return h("li", { class: `step event tone-${outcomeTone(record.event ?? record.outcome)}`, ...common },
                    when, " ", h("span", { class: "event" }, "later"), " ", h("span", {}, eventText(record)));
            }
            const device = record.device;
            const outcome = device?.outcome ?? (record.accepted ? "no device part" : "refused by APNs");
            return h("li", { class: `step push tone-${outcomeTone(device?.outcome)}`,
                    ...common, data: { ...common.data, outcome: device?.outcome ?? "" } },
                when, " ", h("span", { class: "event" }, record.pushType ?? "push"), " ", link, " ",
                h("span", { class: `outcome tone-${outcomeTone(device?.outcome)}` }, outcome),
                device?.rule ? h("code", { class: "hint" }, ` ${device.rule}`) : null,
                device?.reason ? h("p", { class: "why" }, device.reason) : null);
        }));
    }

    showRefusal(message) {
        replace(this.answer);
        this.error.hidden = false;
        replace(this.error, message);
    }

    /** Restarts the phone (`POST /v1/phones/{id}/restart`) and shows the server's answer or its refusal. */
    async restart() {
        if (this.busy) return;
        this.busy = true;
        try {
            const phone = await api(`/v1/phones/${encodeURIComponent(this.id)}/restart`, { method: "POST" });
            this.error.hidden = true;
            replace(this.answer, "Restarted the phone: the server answered with the phone below.");
            this.answer.dataset.answer = JSON.stringify((phone.apps ?? []).map((app) => [app.bundleID, app.state]));
            await this.refresh();
        } catch (error) {
            this.showRefusal(`The server refused the restart: ${error.message}`);
        } finally {
            this.busy = false;
        }
    }

    /** Sends a change (`bundle` null: the phone's own fields) and shows the server's answer or its refusal. */
    async change(fields, bundle) {
        if (this.busy) return;
        this.busy = true;
        const target = bundle == null ? "" : `/apps/${encodeURIComponent(bundle)}`;
        const path = `/v1/phones/${encodeURIComponent(this.id)}${target}`;
        const what = `${bundle ? `${bundle} ` : ""}${JSON.stringify(fields)}`;
        try {
            const phone = await api(path, { method: "PATCH", json: fields });
            this.error.hidden = true;
            replace(this.answer, `Changed ${what}: the server answered with the phone below.`);
            this.answer.dataset.answer = JSON.stringify(bundle ? (phone.apps ?? []).find((app) => app.bundleID ===
                bundle) ?? null : phone.state ?? null);
            await this.refresh();
        } catch (error) {
            this.showRefusal(`The server refused ${what}: ${error.message}`);
        } finally {
            this.busy = false;
        }
    }
}
