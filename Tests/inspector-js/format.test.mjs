// Formatting, the event-stream parser, the list model and the verdict's field at fault.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bytes, clientFramesText, count, duration, payloadLimit, shortToken,
    utf8Length } from "../../Sources/MockAPNs/Control/Inspector/Assets/format.js";
import { EventStreamParser } from "../../Sources/MockAPNs/Control/Inspector/Assets/sse.js";
import { LiveList } from "../../Sources/MockAPNs/Control/Inspector/Assets/livelist.js";
import { deviceFaultPath, faultOf, sourceOf } from "../../Sources/MockAPNs/Control/Inspector/Assets/rules.js";
import { jsonLines } from "../../Sources/MockAPNs/Control/Inspector/Assets/jsonlines.js";

test("formats tokens, counts, sizes and durations as the CLI does", () => {
    assert.equal(shortToken("0123456789abcdef0123456789abcdef"), "012345…abcdef");
    assert.equal(shortToken("abcd"), "abcd");
    assert.equal(count(1234567), "1,234,567");
    assert.equal(bytes(1), "1 byte");
    assert.equal(utf8Length("é"), 2);
    assert.equal(duration(12), "12 s");
    assert.equal(duration(245), "4 min 5 s");
    assert.equal(duration(7380), "2 h 3 min");
    assert.equal(duration(-30), "-30 s");
    assert.equal(payloadLimit("voip"), 5120);
    assert.equal(payloadLimit("alert"), 4096);
});

test("the event-stream parser joins chunks, skips comments and keeps the last id", () => {
    const parser = new EventStreamParser();
    assert.deepEqual(parser.feed(": mock-apns records\n\nid: 3\nevent: rec"), []);
    const events = parser.feed(
        'ord\ndata: {"sequence":3}\n\nid: 4\r\nevent: record\r\ndata: {"a":\r\ndata: 1}\r\n\r\n');
    assert.deepEqual(events, [
        { id: "3", event: "record", data: '{"sequence":3}' },
        { id: "4", event: "record", data: '{"a":\n1}' },
    ]);
    assert.equal(parser.lastEventId, "4");
});

/** A `page` event of the coalesced stream for the records numbered `from` to `to`, all matching. */
function pageOf(from, to, limit = 3) {
    const records = [];
    for (let seq = Math.max(from, to - limit + 1); seq <= to; seq++) records.push({ sequence: seq });
    return { newest: to, matched: to - from + 1, records };
}

test("the list holds one page, counts records while the reader is not following, and ignores repeats", () => {
    const list = new LiveList(3);
    list.load([{ sequence: 1 }, { sequence: 2 }]);
    assert.deepEqual(list.rows.map((r) => r.sequence), [2, 1]);
    assert.equal(list.receivePage(pageOf(3, 3)), true);
    assert.equal(list.receivePage(pageOf(3, 3)), false);
    list.receivePage(pageOf(4, 4));
    assert.deepEqual(list.flush(true), { added: 2, dropped: 1, replaced: false });
    assert.deepEqual(list.rows.map((r) => r.sequence), [4, 3, 2]);
    list.receivePage(pageOf(5, 5));
    assert.deepEqual(list.flush(false), { added: 0, dropped: 0, replaced: false });
    assert.equal(list.pending, 1);
    assert.deepEqual(list.rows.map((r) => r.sequence), [4, 3, 2]);
    list.receivePage(pageOf(6, 1005));
    assert.equal(list.inbox.length, 3);
    assert.equal(list.flush(false).added, 0);
    assert.equal(list.pending, 1001);
    assert.equal(list.oldestRow, 2);
    assert.equal(list.newestSequence, 1005);
});

test("a burst bigger than a page replaces the rows with the newest page, consecutive, and counts every record", () => {
    const list = new LiveList(3);
    list.load([{ sequence: 1 }, { sequence: 2 }]);
    list.receivePage(pageOf(3, 4));
    list.receivePage(pageOf(5, 50));
    assert.deepEqual(list.flush(true), { added: 3, dropped: 0, replaced: true });
    assert.deepEqual(list.rows.map((r) => r.sequence), [50, 49, 48]);
    assert.equal(list.pending, 0);
    // Two events that together overflow the page, each without a gap: the newest page, nothing in between lost.
    list.receivePage(pageOf(51, 52));
    list.receivePage(pageOf(53, 54));
    assert.deepEqual(list.flush(true), { added: 3, dropped: 0, replaced: true });
    assert.deepEqual(list.rows.map((r) => r.sequence), [54, 53, 52]);
});

test("a page event overlapping rows already loaded counts only the records after them", () => {
    const list = new LiveList(3);
    list.load([{ sequence: 9 }, { sequence: 10 }]);
    list.newestSeen = 10;
    // The stream started before the list was loaded: it sends 8..12; 11 and 12 are new.
    assert.equal(list.receivePage({ newest: 12, matched: 5, records: [{ sequence: 10 }, { sequence: 11 },
        { sequence: 12 }] }), true);
    assert.deepEqual(list.flush(false), { added: 0, dropped: 0, replaced: false });
    assert.equal(list.pending, 2);
    // A filtered stream: the newest sequence looked at moves on although fewer records matched.
    assert.equal(list.receivePage({ newest: 20, matched: 1, records: [{ sequence: 17 }] }), true);
    assert.deepEqual(list.flush(true), { added: 1, dropped: 0, replaced: false });
    assert.deepEqual(list.rows.map((r) => r.sequence), [17, 10, 9]);
    assert.equal(list.newestSequence, 20);
    assert.equal(list.receivePage({ newest: "x", matched: 1, records: [] }), false);
});

test("a rejected push's rule points at the header, the token or the payload at fault", () => {
    const headers = [
        ["apns-topic", "com.example.app"],
        ["apns-push-type", "alert"]
    ];
    assert.deepEqual(faultOf({ accepted: false, rule: "apns-topic.unknown-app",
        headers }), { header: "apns-topic" });
    assert.deepEqual(faultOf({ accepted: false, rule: "provider-token.expired",
        headers }), { header: "authorization" });
    assert.deepEqual(faultOf({ accepted: false, rule: "device-token.format", headers }), { path: true });
    assert.deepEqual(faultOf({ accepted: false, rule: "payload.size", headers }), { payload: "" });
    assert.deepEqual(faultOf({ accepted: false, rule: "headers.duplicate", headers: [
            ["a", "1"],
            ["apns-id", "x"],
            ["APNS-ID", "y"]
        ] }), { header: "apns-id" });
    assert.equal(faultOf({ accepted: true, rule: "accepted", headers }), null);
    assert.equal(faultOf({ accepted: false, rule: "scripted:busy", headers }), null);
    assert.equal(sourceOf("apns-topic.suffix").tag, "open");
    assert.equal(sourceOf("scripted:busy").tag, "scenario");
    assert.equal(sourceOf("no-such-rule"), null);
    assert.equal(deviceFaultPath({ reason: "content-state.status: expected String, found number" }),
        "aps.content-state.status");
    assert.equal(deviceFaultPath({ reason: "older timestamp than the last update" }), "aps.timestamp");
});

test("pretty JSON lines know their path, and a huge value is cut", () => {
    const lines = jsonLines({ aps: { alert: { title: "x" } }, n: [1] });
    assert.deepEqual(lines.map((l) => [l.depth, l.text, l.path]), [
        [0, "{", ""],
        [1, '"aps": {', "aps"],
        [2, '"alert": {', "aps.alert"],
        [3, '"title": "x"', "aps.alert.title"],
        [2, "}", "aps.alert"],
        [1, "},", "aps"],
        [1, '"n": [', "n"],
        [2, "1", "n[0]"],
        [1, "]", "n"],
        [0, "}", ""],
    ]);
    const cut = jsonLines(Array.from({ length: 50 }, (_, i) => i), 10);
    assert.equal(cut.length, 11);
    assert.equal(cut[10].text, "… 42 more lines");
});

test("a journal that started over (a restarted server) makes the list take records numbered from 1 again", () => {
    const list = new LiveList(3);
    list.load([{ sequence: 40 }, { sequence: 41 }]);
    assert.equal(list.startedOver({ newest: 41 }), false);
    assert.equal(list.startedOver({ newest: 45 }), false);
    assert.equal(list.receivePage(pageOf(1, 1)), false);
    assert.equal(list.startedOver({ newest: 2 }), true);
    assert.equal(list.newestSequence, null);
    assert.equal(list.receivePage(pageOf(1, 1)), true);
    assert.equal(new LiveList(3).startedOver({ newest: null }), false);
});

test("a connection's client frames read as HTTP/2 names with counts, the unsent left out", () => {
    assert.equal(clientFramesText({ settings: 1, settings_ack: 1, ping: 0, window_update: 2, rst_stream: 0,
        goaway: 1, total: 5 }), "SETTINGS×1 SETTINGS ACK×1 WINDOW_UPDATE×2 GOAWAY×1");
    assert.equal(clientFramesText({ settings: 0, total: 0 }), "-");
    assert.equal(clientFramesText(null), "-");
});
