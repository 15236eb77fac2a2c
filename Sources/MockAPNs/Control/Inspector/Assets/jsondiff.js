// A diff of two JSON values by path: what Compare and the activity timeline show. Pure, no DOM.
import { childPath } from "./jsonpath.js";

function kindOf(value) {
    if (value === null) return "null";
    if (Array.isArray(value)) return "array";
    return typeof value;
}

/**
 * The differences between `before` and `after`, depth first in document order, as
 * `{path, change: "added" | "removed" | "changed", before, after}`. Objects compare member by member, arrays
 * index by index; a value whose type changes (object → string) is one `changed` entry at its path. The root's
 * path is "". `limit` bounds the list (a huge payload cannot make the page build an unbounded table); `truncated`
 * on the answer says so.
 */
export function diffJSON(before, after, limit = 500) {
    const changes = [];
    let truncated = false;
    const push = (entry) => {
        if (changes.length >= limit) {
            truncated = true;
            return false;
        }
        changes.push(entry);
        return true;
    };
    const walk = (a, b, path) => {
        if (truncated) return;
        const ka = kindOf(a);
        const kb = kindOf(b);
        if (ka !== kb || (ka !== "object" && ka !== "array")) {
            if (ka !== kb || a !== b) push({ path, change: "changed", before: a, after: b });
            return;
        }
        if (ka === "array") {
            const shared = Math.min(a.length, b.length);
            for (let i = 0; i < shared; i++) walk(a[i], b[i], childPath(path, i));
            for (let i = shared; i < a.length; i++) push({ path: childPath(path, i), change: "removed", before: a[
                    i] });
            for (let i = shared; i < b.length; i++) push({ path: childPath(path, i), change: "added", after: b[
                i] });
            return;
        }
        for (const key of Object.keys(a)) {
            if (Object.prototype.hasOwnProperty.call(b, key)) walk(a[key], b[key], childPath(path, key));
            else push({ path: childPath(path, key), change: "removed", before: a[key] });
        }
        for (const key of Object.keys(b)) {
            if (!Object.prototype.hasOwnProperty.call(a, key)) {
                push({ path: childPath(path, key), change: "added", after: b[key] });
            }
        }
    };
    walk(before, after, "");
    return { changes, truncated };
}

/**
 * The differences between two header lists (`[[name, value], …]`, names compared ignoring case), as
 * `{name, change, before, after}` in the order of the first list then the new names of the second. A header
 * sent twice keeps its values joined with ", " (DuplicateHeaders is a verdict of its own).
 */
export function diffHeaders(before, after) {
    const collect = (list) => {
        const map = new Map();
        for (const [name, value] of list ?? []) {
            const key = String(name).toLowerCase();
            map.set(key, map.has(key) ? `${map.get(key)}, ${value}` : String(value));
        }
        return map;
    };
    const a = collect(before);
    const b = collect(after);
    const rows = [];
    for (const [name, value] of a) {
        if (!b.has(name)) rows.push({ name, change: "removed", before: value, after: null });
        else if (b.get(name) !== value) rows.push({ name, change: "changed", before: value, after: b.get(name) });
        else rows.push({ name, change: "same", before: value, after: value });
    }
    for (const [name, value] of b) {
        if (!a.has(name)) rows.push({ name, change: "added", before: null, after: value });
    }
    return rows;
}
