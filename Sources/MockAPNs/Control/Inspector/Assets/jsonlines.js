// A JSON value pretty-printed as lines that each know the path they belong to, so that a view can mark the
// lines of the field at fault. Pure: the view puts each line's text in the page with textContent.
import { childPath } from "./jsonpath.js";

/**
 * `[{depth, text, path}]`: the value as JSON.stringify(value, null, 2) would print it, one entry per line, with
 * the path of the member or element the line belongs to (an object's closing brace belongs to the object).
 * At most `limit` lines; a last line says how many were left out.
 */
export function jsonLines(value, limit = 2000) {
    const lines = [];
    let omitted = 0;
    const emit = (depth, text, path) => {
        if (lines.length < limit) lines.push({ depth, text, path });
        else omitted += 1;
    };
    const walk = (node, depth, path, prefix, suffix) => {
        const isArray = Array.isArray(node);
        if (node !== null && typeof node === "object") {
            const keys = isArray ? node.map((_, i) => i) : Object.keys(node);
            if (keys.length === 0) {
                emit(depth, `${prefix}${isArray ? "[]" : "{}"}${suffix}`, path);
                return;
            }
            emit(depth, `${prefix}${isArray ? "[" : "{"}`, path);
            keys.forEach((key, index) => {
                const comma = index < keys.length - 1 ? "," : "";
                const label = isArray ? "" : `${JSON.stringify(key)}: `;
                walk(node[key], depth + 1, childPath(path, key), label, comma);
            });
            emit(depth, `${isArray ? "]" : "}"}${suffix}`, path);
            return;
        }
        emit(depth, `${prefix}${JSON.stringify(node) ?? "null"}${suffix}`, path);
    };
    walk(value, 0, "", "", "");
    if (omitted > 0) lines.push({ depth: 0, text: `… ${omitted} more lines`, path: null });
    return lines;
}
