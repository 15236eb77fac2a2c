// JSON paths as the page writes them: `aps.alert.title`, `aps.content-state.eta`, `items[0]`, `meta["a.b"]`.
// The same spelling as expectations and `mock-apns requests` use for payload fields.

/** The path of `key` (a member name or an array index) inside `parent` (a path, "" for the root). */
export function childPath(parent, key) {
    if (typeof key === "number") return `${parent}[${key}]`;
    const plain = /^[A-Za-z0-9_$-]+$/.test(key);
    if (!plain) return `${parent}[${JSON.stringify(key)}]`;
    return parent === "" ? key : `${parent}.${key}`;
}

/** True when `path` is `ancestor` or lies inside it (`aps.alert.title` inside `aps.alert`; "" holds everything). */
export function isWithin(path, ancestor) {
    if (ancestor === "" || path === ancestor) return true;
    return path.startsWith(ancestor) && (path[ancestor.length] === "." || path[ancestor.length] === "[");
}

/** The value at `path` in `value`, or undefined (paths as `childPath` writes them). */
export function valueAt(value, path) {
    if (path === "") return value;
    const pattern = /([A-Za-z0-9_$-]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\./g;
    let current = value;
    let match;
    let consumed = 0;
    while ((match = pattern.exec(path)) !== null) {
        if (match.index !== consumed) return undefined;
        consumed = pattern.lastIndex;
        if (match[0] === ".") continue;
        if (current == null || typeof current !== "object") return undefined;
        const key = match[1] ?? (match[2] !== undefined ? Number(match[2]) : JSON.parse(match[3]));
        if (typeof key === "number" ? !Array.isArray(current) : Array.isArray(current)) return undefined;
        if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
        current = current[key];
    }
    return consumed === path.length ? current : undefined;
}
