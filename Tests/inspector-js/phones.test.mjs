// The Phones view's pure logic: list rows, filtering 1,000 phones, thread grouping as the person sees it, a phone
// record's change in words, and the timeline's order.
import { test } from "node:test";
import assert from "node:assert/strict";
import { changeLines, eventText, filterPhones, focusText, journalPhones, lastChanges, notificationSender, outcomeTone,
    phoneRow, senderInitials, threadGroups, timelineEntries }
    from "../../Sources/MockAPNs/Control/Inspector/Assets/phones.js";

const alice = {
    id: "alice", declared: true, tokens: ["5984de83"],
    state: { online: false, locked: true, lowPowerMode: false, focus: { name: "Sleep", allowedApps: ["com.chat"] } },
    apps: [{ bundleID: "com.example.app", notificationCount: 3 }, { bundleID: "com.chat", notificationCount: 2 }],
};

test("a phone's list row says declared or implicit, its state and its counts", () => {
    assert.deepEqual(phoneRow(alice), { id: "alice", kind: "declared", online: false, locked: true,
        focus: "Sleep (allows com.chat)", apps: 2, notifications: 5, tokens: ["5984de83"] });
    const implicit = phoneRow({ id: "abcd", declared: false, state: { online: true, focus: null }, apps: [] });
    assert.equal(implicit.kind, "implicit");
    assert.equal(implicit.focus, "off");
    assert.equal(implicit.online, true);
});

test("a phone the server describes with members missing still makes a row", () => {
    const row = phoneRow({ id: "bare" });
    assert.deepEqual(row, { id: "bare", kind: "implicit", online: true, locked: false, focus: "off", apps: 0,
        notifications: 0, tokens: [] });
});

test("the filter finds a phone by id or token among 1,000, in any case", () => {
    const phones = Array.from({ length: 1000 }, (_, i) => phoneRow({ id: `phone-${i}`,
        tokens: [`${i.toString(16).padStart(4, "0")}feed`] }));
    assert.equal(filterPhones(phones, "").length, 1000);
    assert.deepEqual(filterPhones(phones, "PHONE-999").map((p) => p.id), ["phone-999"]);
    assert.deepEqual(filterPhones(phones, "03e7FEED").map((p) => p.id), ["phone-999"]);
    assert.equal(filterPhones(phones, "nothing").length, 0);
});

test("Focus reads as its name, off when null", () => {
    assert.equal(focusText(null), "off");
    assert.equal(focusText({ name: "Work" }), "Work");
    assert.equal(focusText({}), "on");
});

test("notifications group by thread, each group where its newest one is, unthreaded ones alone", () => {
    const list = [
        { sequence: 9, threadID: "chat-1" }, { sequence: 8, threadID: null }, { sequence: 7, threadID: "chat-2" },
        { sequence: 6, threadID: "chat-1" }, { sequence: 5 },
    ];
    const groups = threadGroups(list);
    assert.deepEqual(groups.map((g) => [g.thread, g.items.map((n) => n.sequence)]), [
        ["chat-1", [9, 6]], [null, [8]], ["chat-2", [7]], [null, [5]],
    ]);
    assert.deepEqual(threadGroups(undefined), []);
});

test("a phone record's change reads field by field, settings walked, released pushes named", () => {
    const record = { kind: "phone", phone: "alice", app: "com.example.app",
        before: { state: "background", settings: { sounds: true, alerts: true } },
        after: { state: "forceQuit", settings: { sounds: false, alerts: true } },
        released: [{ app: "com.example.app", push: 12 }] };
    assert.deepEqual(changeLines(record), [
        "app com.example.app state: background → forceQuit",
        "app com.example.app settings.sounds: true → false",
        "released #12 held for com.example.app",
    ]);
    const nested = { kind: "phone", phone: "alice", app: "com.example.app",
        before: { apps: { "com.example.app": { state: "background" } } },
        after: { apps: { "com.example.app": { state: "forceQuit" } } } };
    assert.deepEqual(changeLines(nested), ["app com.example.app state: background → forceQuit"]);
    assert.deepEqual(changeLines({ before: { focus: { name: "Sleep" } }, after: { focus: null } }),
        ['focus: {"name":"Sleep"} → off']);
    assert.deepEqual(changeLines({ before: { online: true }, after: { online: false } }), ["online: true → false"]);
    const restart = { kind: "phone", phone: "alice", action: "restart",
        before: { apps: { "com.example.app": { state: "forceQuit" } } },
        after: { apps: { "com.example.app": { state: "notRunning" } } } };
    assert.deepEqual(changeLines(restart),
        ["restarted the phone", "app com.example.app state: forceQuit → notRunning"]);
    assert.deepEqual(changeLines({ action: "restart", before: {}, after: {} }), ["restarted the phone"]);
});

test("the newest change of each phone is kept", () => {
    const changes = lastChanges([
        { kind: "phone", phone: "a", receivedAt: "2026-11-26T10:00:00Z" },
        { kind: "phone", phone: "a", receivedAt: "2026-11-26T11:00:00Z" },
        { kind: "phone", phone: "b", receivedAt: "2026-11-26T09:00:00Z" },
        { kind: "push", phone: "c", receivedAt: "2026-11-26T09:00:00Z" },
    ]);
    assert.equal(changes.get("a"), "2026-11-26T11:00:00Z");
    assert.equal(changes.get("b"), "2026-11-26T09:00:00Z");
    assert.equal(changes.has("c"), false);
});

test("the timeline merges changes, pushes and their later events in journal order, the newest kept", () => {
    const entries = timelineEntries({
        records: [{ sequence: 2, kind: "phone", receivedAt: "t2" }],
        pushes: [{ sequence: 3, receivedAt: "t3" }, { sequence: 1, receivedAt: "t1" }],
        events: [{ sequence: 4, kind: "device-event", push: 3 }, { sequence: 5, kind: "device-event", push: 99 }],
    });
    assert.deepEqual(entries.map((e) => [e.sequence, e.kind]), [[1, "push"], [2, "change"], [3, "push"],
        [4, "event"]]);
    const many = Array.from({ length: 300 }, (_, i) => ({ sequence: i + 1 }));
    const kept = timelineEntries({ pushes: many, limit: 200 });
    assert.equal(kept.length, 200);
    assert.equal(kept[0].sequence, 101);
    assert.deepEqual(timelineEntries(), []);
});

test("a device event reads with its push, what happened, why and the rule", () => {
    assert.equal(eventText({ push: 3, event: "delivered", reason: "back online", rule: "storage-delivered" }),
        "#3 delivered: back online (storage-delivered)");
    assert.equal(eventText({}), "#? event");
});

test("every outcome of the phone's vocabulary has a tone", () => {
    for (const outcome of ["shown", "shownQuietly", "withheld", "notShown", "applied", "launched", "held",
        "notLaunched", "reported", "terminated", "discarded", "stored", "delivered", "replaced", "expired",
        "started", "ended", "ignored", "dropped", "throttled"]) {
        assert.notEqual(outcomeTone(outcome), "", outcome);
    }
    assert.equal(outcomeTone("notLaunched"), "bad");
    assert.equal(outcomeTone(null), "");
});

test("a token a push reached is an implicit phone even when the server keeps nothing for it", () => {
    const listed = [phoneRow(alice)];
    const summaries = [
        { sequence: 1, token: "AAAA", device: "shown" },
        { sequence: 2, token: "5984de83", device: "shown" },
        { sequence: 3, token: "bbbb", device: null },
        { sequence: 4, token: "cccc", device: "notLaunched" },
        { sequence: 5, token: "aaaa", device: "shown" },
        { sequence: 6, kind: "phone" },
    ];
    const found = journalPhones(summaries, listed);
    assert.deepEqual(found.map((row) => row.id), ["aaaa", "cccc"]);
    assert.deepEqual(found[0], { id: "aaaa", kind: "implicit", online: true, locked: false, focus: "off", apps: null,
        notifications: null, tokens: ["aaaa"], source: "journal" });
    assert.deepEqual(journalPhones(undefined, undefined), []);
});

test("a communication notification names its sender; an ordinary one, or a malformed member, names nobody", () => {
    assert.equal(notificationSender({ sequence: 3, communication: { sender: "Mum" } }), "Mum");
    assert.equal(notificationSender({ sequence: 4, communication: null }), "");
    assert.equal(notificationSender({ sequence: 5 }), "");
    assert.equal(notificationSender({ communication: { sender: 42 } }), "");
    assert.equal(notificationSender(null), "");
});

test("a sender's avatar shows the initials of the first two words, as iOS draws one without a photo", () => {
    assert.equal(senderInitials("Mum"), "M");
    assert.equal(senderInitials("anna  maria smith"), "AM");
    assert.equal(senderInitials("Émile Zola"), "ÉZ");
    assert.equal(senderInitials("😀 Party"), "😀P");
    assert.equal(senderInitials(""), "");
});
