// The notification preview: what an iPhone would draw, approximately, with nothing fetched.
import { test } from "node:test";
import assert from "node:assert/strict";
import { previewModel } from "../../Sources/MockAPNs/Control/Inspector/Assets/preview.js";

test("an alert shows title, subtitle and body with its badge, sound and thread", () => {
    const model = previewModel({
        aps: {
            alert: { title: "Order ready", subtitle: "Table 4", body: "Come and get it" },
            badge: 3,
            sound: "ping.caf",
            "thread-id": "orders",
            "interruption-level": "time-sensitive"
        },
    }, "com.example.app", "alert");
    assert.equal(model.shows, true);
    assert.deepEqual([model.title, model.subtitle, model.body, model.badge, model.sound, model.thread, model
            .interruption
        ],
        ["Order ready", "Table 4", "Come and get it", 3, "ping.caf", "orders", "time-sensitive"]);
    assert.equal(model.app, "app");
});

test("localized keys are shown unresolved", () => {
    const model = previewModel({ aps: { alert: { "title-loc-key": "READY", "loc-key": "BODY", "loc-args": [
                "42"] } } }, "t", "alert");
    assert.equal(model.title, "[READY]");
    assert.equal(model.body, "[BODY] (42)");
});

test("attachment and image URLs are named, as text, never fetched", () => {
    const model = previewModel({ aps: { alert: "Hi", "mutable-content": 1 },
        media: { url: "https://example.com/a.jpg" } }, "t", "alert");
    assert.deepEqual(model.attachments, [{ path: "media.url", url: "https://example.com/a.jpg" }]);
    assert.equal(model.mutable, true);
});

test("says why nothing shows", () => {
    assert.equal(previewModel({ aps: { "content-available": 1 } }, "t", "background").why,
        "a background push wakes the app and shows nothing");
    assert.equal(previewModel({ data: 1 }, "t", "alert").why, "the payload has no aps");
    assert.equal(previewModel("text", "t", "alert").why, "the payload is not a JSON object");
    assert.equal(previewModel({ aps: {} }, "t", "alert").why, "aps has no alert, sound or badge");
    const live = previewModel({ aps: { event: "update", "content-state": { eta: 5 }, timestamp: 1 } }, "t",
        "liveactivity");
    assert.equal(live.shows, false);
    assert.deepEqual(live.liveActivity.contentState, { eta: 5 });
});
