// The assets as the server serves them: flat names under /assets/ (GET /assets/{name}), nothing the
// Content-Security-Policy (default-src 'self') would block, and no way for data to become HTML.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";

const folder = new URL("../../Sources/MockAPNs/Control/Inspector/Assets/", import.meta.url);
const names = readdirSync(folder);
const text = (name) => readFileSync(new URL(name, folder), "utf8");
const scripts = names.filter((name) => name.endsWith(".js"));

test("every module imports flat names that exist, so GET /assets/{name} serves them all", () => {
    for (const name of scripts) {
        for (const [, target] of text(name).matchAll(/\bfrom\s+"([^"]+)"/g)) {
            assert.match(target, /^\.\/[a-z0-9-]+\.js$/, `${name} imports ${target}`);
            assert.ok(names.includes(target.slice(2)), `${name} imports ${target}, which is not in Assets/`);
        }
    }
    assert.deepEqual(names.filter((name) => !/^[a-z0-9-]+\.(js|css|html|svg)$/.test(name)), []);
});

test("index.html loads only /assets/app.js as a module and /assets/app.css, with nothing inline", () => {
    const html = text("index.html");
    const sources = [...html.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1]);
    assert.deepEqual(sources.map((attrs) => attrs.trim()), ['type="module" src="/assets/app.js"']);
    assert.doesNotMatch(html, /<script\b[^>]*>[^<\s]/, "an inline script");
    assert.doesNotMatch(html, /\sstyle=|<style\b|\son[a-z]+=/i, "an inline style or handler");
    assert.match(html, /<link rel="stylesheet" href="\/assets\/app.css">/);
});

test("no module parses data as HTML, evaluates text, or names another site", () => {
    for (const name of [...scripts, "index.html", "app.css"]) {
        const source = text(name);
        const unsafe = /\.innerHTML|\.outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function\(/;
        assert.doesNotMatch(source, unsafe,
            `${name} builds HTML from text or evaluates it`);
        const elsewhere = /(?:src|href|url)\s*[=(]\s*["']?(?:https?:)?\/\/[a-z]/i;
        assert.doesNotMatch(source, elsewhere, `${name} loads another site`);
    }
});
