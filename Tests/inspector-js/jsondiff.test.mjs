// Compare and the activity timeline: a diff of two JSON values by path, and of two header lists.
import { test } from "node:test";
import assert from "node:assert/strict";
import { diffHeaders, diffJSON } from "../../Sources/MockAPNs/Control/Inspector/Assets/jsondiff.js";
import { childPath, isWithin, valueAt } from "../../Sources/MockAPNs/Control/Inspector/Assets/jsonpath.js";

test("names each changed, added and removed member by its path", () => {
    const a = { aps: { alert: { title: "Order ready", body: "x" }, badge: 1 }, order: 42 };
    const b = { aps: { alert: { title: "Order Ready" }, sound: "default", badge: 1 }, order: 42 };
    const { changes, truncated } = diffJSON(a, b);
    assert.equal(truncated, false);
    assert.deepEqual(changes, [
        { path: "aps.alert.title", change: "changed", before: "Order ready", after: "Order Ready" },
        { path: "aps.alert.body", change: "removed", before: "x" },
        { path: "aps.sound", change: "added", after: "default" },
    ]);
});

test("arrays compare by index, a type change is one change, equal values none", () => {
    assert.deepEqual(diffJSON([1, 2], [1, 3, 4]).changes, [
        { path: "[1]", change: "changed", before: 2, after: 3 },
        { path: "[2]", change: "added", after: 4 },
    ]);
    assert.deepEqual(diffJSON({ a: { b: 1 } }, { a: "text" }).changes, [
        { path: "a", change: "changed", before: { b: 1 }, after: "text" },
    ]);
    assert.deepEqual(diffJSON({ a: [1, { b: null }] }, { a: [1, { b: null }] }).changes, []);
    assert.deepEqual(diffJSON(null, 0).changes, [{ path: "", change: "changed", before: null, after: 0 }]);
});

test("a key that is not a plain name is quoted in the path, and the path reads back", () => {
    assert.equal(childPath("aps", "content-state"), "aps.content-state");
    assert.equal(childPath("meta", "a.b"), 'meta["a.b"]');
    assert.equal(childPath("", 0), "[0]");
    const value = { aps: { "content-state": { eta: 5 } }, meta: { "a.b": [7] } };
    assert.equal(valueAt(value, "aps.content-state.eta"), 5);
    assert.equal(valueAt(value, 'meta["a.b"][0]'), 7);
    assert.equal(valueAt(value, "aps.missing"), undefined);
    assert.equal(isWithin("aps.alert.title", "aps.alert"), true);
    assert.equal(isWithin("aps.alertx", "aps.alert"), false);
    assert.equal(isWithin("anything", ""), true);
});

test("a huge difference is cut at the limit and says so", () => {
    const big = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i]));
    const { changes, truncated } = diffJSON({}, big, 500);
    assert.equal(changes.length, 500);
    assert.equal(truncated, true);
});

test("headers compare by name ignoring case", () => {
    const rows = diffHeaders(
        [
            ["apns-topic", "com.example.app"],
            ["apns-push-type", "alert"],
            ["apns-priority", "10"]
        ],
        [
            ["APNS-TOPIC", "com.example.app"],
            ["apns-push-type", "background"],
            ["apns-expiration", "0"]
        ]);
    assert.deepEqual(rows.map((r) => [r.name, r.change]), [
        ["apns-topic", "same"],
        ["apns-push-type", "changed"],
        ["apns-priority", "removed"],
        ["apns-expiration", "added"],
    ]);
});
