// The one way the page makes elements. Text always goes in as text nodes (textContent): nothing from a record,
// a payload or the server's messages is ever parsed as HTML.

/**
 * An element: `h("tr", {class: "row", testid: "push-row", data: {seq: 3}, attrs: {role: "row"}, on: {click}},
 * child, …)`. Children are nodes, strings (made text nodes), numbers, or null/false (skipped); arrays flatten.
 */
export function h(tag, props = {}, ...children) {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(props ?? {})) {
        if (value == null || value === false) continue;
        if (key === "class") element.className = value;
        else if (key === "testid") element.dataset.testid = value;
        else if (key === "data")
            for (const [name, item] of Object.entries(value)) element.dataset[name] = item;
        else if (key === "attrs") {
            for (const [name, item] of Object.entries(value))
                if (item != null) element.setAttribute(name, item);
        } else if (key === "on")
            for (const [name, handler] of Object.entries(value)) element.addEventListener(name, handler);
        else if (key === "text") element.textContent = value;
        else element[key] = value;
    }
    append(element, children);
    return element;
}

/** Appends children as `h` takes them. */
export function append(parent, children) {
    for (const child of children.flat(Infinity)) {
        if (child == null || child === false) continue;
        parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return parent;
}

/** Empties an element and fills it with new children. */
export function replace(parent, ...children) {
    parent.replaceChildren();
    return append(parent, children);
}

/** A definition list from `[[term, value], …]` (values as `h` children); rows whose value is null are left out. */
export function facts(rows, props = {}) {
    return h(
        "dl", { class: "facts", ...props },
        rows.filter(([, value]) => value != null && value !== "").map(([term, value]) => [h("dt", {}, term), h(
        "dd", {}, value)]),
    );
}
