// The page's URL state: every view's permalink reads back to the same view, and a search error points at its word.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseRoute, queryErrorPlace, routeURL,
    sequenceFrom } from "../../Sources/MockAPNs/Control/Inspector/Assets/route.js";

test("every view's URL reads back to the same route", () => {
    const urls = ["/", "/?q=status%3A4xx", "/?q=a+b&older=120", "/push/7", "/compare/3/9", "/activities",
        "/activity/0C6F1A2B-AAAA", "/connections", "/world", "/phones", "/phones/alice",
        "/phones/5984de83fef02c9ae624a1a84d3c486cceb0ea1086f6bf8c39efad11ec251979", "/phones/a%25c"
    ];
    for (const url of urls) {
        const [path, search = ""] = url.split("?");
        const route = parseRoute(path, search ? `?${search}` : "");
        assert.notEqual(route.view, "notFound", url);
        assert.deepEqual(parseRoute(...routeURL(route).split(/(?=\?)/)), route, url);
    }
});

test("the search lives in the URL with its spaces and colons", () => {
    const url = routeURL({ view: "pushes", q: "status:4xx -reason:BadDeviceToken" });
    assert.equal(url, "/?q=status%3A4xx+-reason%3ABadDeviceToken");
    assert.equal(parseRoute("/", url.slice(1)).q, "status:4xx -reason:BadDeviceToken");
});

test("a sequence number the API would refuse is not a route", () => {
    assert.equal(parseRoute("/push/-1").view, "notFound");
    assert.equal(parseRoute("/push/1e3").view, "notFound");
    assert.equal(parseRoute("/push/18446744073709551616").view, "notFound");
    assert.equal(sequenceFrom("18446744073709551615"), "18446744073709551615");
    assert.equal(parseRoute("/", "?older=abc").older, undefined);
    assert.equal(parseRoute("/push/3/extra").view, "notFound");
});

test("a search error points at the word the server quotes", () => {
    const q = "status:4xx -reson:BadDeviceToken";
    const message =
        "q: at '-reson:BadDeviceToken' (character 12): unknown field 'reson' (did you mean 'reason'?)";
    const place = queryErrorPlace(message, q);
    assert.deepEqual([place.word, place.start, place.end], ["-reson:BadDeviceToken", 11, q.length]);
    assert.equal(q.slice(place.start, place.end), "-reson:BadDeviceToken");
});

test("a search error without a place, or with a place that does not match, is still shown whole", () => {
    assert.equal(queryErrorPlace("q: a search holds at most 32 words", "a b"), null);
    const place = queryErrorPlace("q: at 'bad:' (character 40): …", "x bad:");
    assert.equal(place.start, 2);
});

test("a phone is named by its id or a token, escaped in its URL", () => {
    assert.deepEqual(parseRoute("/phones/alice"), { view: "phone", id: "alice" });
    assert.equal(routeURL({ view: "phone", id: "a/b" }), "/phones/a%2Fb");
    assert.deepEqual(parseRoute("/phones/a%2Fb"), { view: "notFound", path: "/phones/a%2Fb" });
    assert.equal(parseRoute("/phones/a/b").view, "notFound");
    assert.equal(parseRoute("/phones/" + "x".repeat(257)).view, "notFound");
});
