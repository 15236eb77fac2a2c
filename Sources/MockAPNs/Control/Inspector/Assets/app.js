// The inspector's entry point: reads /v1/info, routes from location.pathname (history API), and hands each view
// the page's shared parts. Every view is built from documented control routes only.
import { api, ApiError, onTokenNeeded } from "./api.js";
import { h, replace } from "./dom.js";
import { parseRoute, routeURL } from "./route.js";
import { PushesView } from "./view-pushes.js";
import { PushView } from "./view-push.js";
import { CompareView } from "./view-compare.js";
import { ActivitiesView, ActivityView } from "./view-activities.js";
import { ConnectionsView } from "./view-connections.js";
import { PhonesView, PhoneView } from "./view-phones.js";
import { WorldView } from "./view-world.js";
import { copyCurl, replay } from "./actions.js";

const main = document.getElementById("main");
const banner = document.getElementById("banner");
const badge = document.getElementById("badge");
const toastBox = document.getElementById("toast");
const searchForm = document.getElementById("search-form");
const searchInput = document.getElementById("search");

/** What every view gets: the server's info, navigation, messages and the actions keys trigger. */
const context = {
    info: { mode: "live", readOnly: false, run: false, warnings: [] },
    navigate,
    toast,
    showError,
    setBadge,
    searchInput,
    /** The sequence number of the push the list was left for: Esc comes back to its row. */
    cameFrom: null,
    actions: {
        copyCurl: (seq) => copyCurl(seq, context),
        replay: (seq) => replay(seq, context),
    },
};

const pushes = new PushesView(context);
let current = null;

/** Shows a sentence in the page's error banner (role=alert); null hides it. */
function showError(message) {
    banner.hidden = !message;
    replace(banner, message ?? "");
}

let toastTimer = null;
/** Says something briefly (role=status): "Copied the curl command". */
function toast(message) {
    replace(toastBox, message);
    toastBox.classList.add("shown");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => toastBox.classList.remove("shown"), 4000);
}

/** The stream badge: `live`, `reconnecting`, `file`, `paused` or `off`, with a title saying more. */
function setBadge(state, title = "") {
    badge.hidden = false;
    badge.dataset.state = state;
    badge.title = title;
    replace(badge, state);
}

/** Goes to a URL of the page (pushState), or replaces the current entry. */
function navigate(url, { replace: replaceEntry = false } = {}) {
    if (url === location.pathname + location.search) return render();
    if (replaceEntry) history.replaceState(null, "", url);
    else history.pushState(null, "", url);
    render();
}

function viewFor(route) {
    switch (route.view) {
        case "pushes":
            return pushes;
        case "push":
            return new PushView(context);
        case "compare":
            return new CompareView(context);
        case "activities":
            return new ActivitiesView(context);
        case "activity":
            return new ActivityView(context);
        case "phones":
            return new PhonesView(context);
        case "phone":
            return new PhoneView(context);
        case "connections":
            return new ConnectionsView(context);
        case "world":
            return new WorldView(context);
        default:
            return null;
    }
}

function render() {
    const route = parseRoute(location.pathname, location.search);
    showError(null);
    for (const link of document.querySelectorAll("[data-nav]")) {
        const active = link.dataset.nav === route.view || (link.dataset.nav === "activities" && route.view ===
            "activity") || (link.dataset.nav === "phones" && route.view === "phone");
        if (active) link.setAttribute("aria-current", "page");
        else link.removeAttribute("aria-current");
    }
    if (route.view !== "pushes" || document.activeElement !== searchInput) {
        searchInput.value = route.view === "pushes" ? route.q : searchInput.value;
    }
    const next = viewFor(route);
    if (current && current !== next) current.unmount?.();
    current = next;
    if (!next) {
        replace(main, h("h1", {}, "Not found"),
            h("p", {}, `The inspector has no page at ${route.path}. `, h("a", { href: "/",
            attrs: { "data-link": "" } }, "See the pushes"), "."));
        return;
    }
    document.title = "mock-apns inspector";
    Promise.resolve(next.mount(main, route)).catch((error) => failed(error));
}

function failed(error) {
    const message = error instanceof ApiError ? error.message : `The page hit an error: ${error.message}`;
    showError(message);
    if (!main.querySelector("h1")) replace(main, h("h1", {}, "Something went wrong"), h("p", {}, message));
}

function isTyping(target) {
    return target instanceof HTMLElement &&
        (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape" && isTyping(event.target)) {
        event.target.blur();
        return;
    }
    if (isTyping(event.target)) return;
    if (document.querySelector("dialog[open]")) return;
    if (event.key === "/") {
        event.preventDefault();
        searchInput.focus();
        searchInput.select();
        return;
    }
    if (current?.key?.(event)) event.preventDefault();
});

document.addEventListener("click", (event) => {
    const link = event.target.closest?.("a[href]");
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || link.target) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith("/v1/") || url.pathname.startsWith(
        "/assets/")) return;
    event.preventDefault();
    navigate(url.pathname + url.search);
});

window.addEventListener("popstate", render);

// A page left for another (it may be kept in the back/forward cache) lets go of its streams, so that it holds no
// connection to the control API: a browser opens only six to one host, and the page that is shown needs them.
window.addEventListener("pagehide", () => {
    current?.unmount?.();
    pushes.stopStream();
});
window.addEventListener("pageshow", (event) => {
    if (event.persisted) {
        current = null;
        pushes.root = null;
        render();
    }
});

searchForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const q = searchInput.value.trim();
    navigate(routeURL({ view: "pushes", q }));
    searchInput.blur();
});

onTokenNeeded(() => askToken());

function askToken() {
    const dialog = document.getElementById("token-dialog");
    const form = document.getElementById("token-form");
    const input = document.getElementById("token-input");
    if (dialog.open) return Promise.resolve(null);
    return new Promise((resolve) => {
        const done = (value) => {
            form.removeEventListener("submit", onSubmit);
            dialog.removeEventListener("cancel", onCancel);
            if (dialog.open) dialog.close();
            resolve(value);
        };
        const onSubmit = (event) => {
            event.preventDefault();
            done(event.submitter?.value === "ok" && input.value ? input.value : null);
        };
        const onCancel = () => done(null);
        form.addEventListener("submit", onSubmit);
        dialog.addEventListener("cancel", onCancel);
        input.value = "";
        dialog.showModal();
        input.focus();
    });
}

async function start() {
    try {
        const info = await api("/v1/info");
        Object.assign(context.info, info);
    } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 404) {
            failed(error);
        }
    }
    const warnings = document.getElementById("warnings");
    const list = context.info.warnings ?? [];
    warnings.hidden = list.length === 0;
    replace(warnings, list.map((warning) => h("p", {}, warning)));
    if (context.info.mode === "file") {
        setBadge("file", `read-only, from ${context.info.file ?? "a journal file"}`);
        document.body.classList.add("read-only");
    }
    render();
}

start();
