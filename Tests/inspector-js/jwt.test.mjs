// The provider token on a push's page: decoded, its iat age against the 60-minute lifetime and 20-minute window.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bearerToken, decodeJWT, issuedAtSeconds,
    tokenAge } from "../../Sources/MockAPNs/Control/Inspector/Assets/jwt.js";

const b64url = (value) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

test("decodes the header and claims and tells a raw signature from DER", () => {
    const raw =
        [b64url({ alg: "ES256", kid: "TESTKEY001" }), b64url({ iss: "TESTTEAM01", iat: 1795266640 }),
            Buffer.alloc(64, 1).toString("base64url")].join(".");
    const decoded = decodeJWT(raw);
    assert.deepEqual(decoded.header, { alg: "ES256", kid: "TESTKEY001" });
    assert.deepEqual(decoded.claims, { iss: "TESTTEAM01", iat: 1795266640 });
    assert.equal(decoded.signatureForm, "raw R‖S (64 bytes)");
    assert.deepEqual(decoded.errors, []);
    const der = Buffer.concat([Buffer.from([0x30, 0x45]), Buffer.alloc(69, 2)]).toString("base64url");
    assert.match(decodeJWT(`${raw.split(".").slice(0, 2).join(".")}.${der}`).signatureForm,
        /^DER \(71 bytes\)$/);
});

test("says what is wrong with a token that does not decode", () => {
    assert.match(decodeJWT("abc").errors[0], /three parts/);
    const bad = decodeJWT(`${b64url("not json")}.@@@.x`);
    assert.equal(bad.header, null);
    assert.match(bad.errors.join(" "), /header is not JSON/);
    assert.match(bad.errors.join(" "), /claims is not base64url/);
});

test("takes a bearer token from the header value in any case", () => {
    assert.equal(bearerToken("bearer a.b.c"), "a.b.c");
    assert.equal(bearerToken("Bearer  a.b.c "), "a.b.c");
    assert.equal(bearerToken("Basic xyz"), null);
    assert.equal(bearerToken(undefined), null);
});

test("reads a numeric-string iat as some clients send it", () => {
    assert.equal(issuedAtSeconds({ iat: "1795266640" }), 1795266640);
    assert.equal(issuedAtSeconds({ iat: 1795266640.5 }), 1795266640.5);
    assert.equal(issuedAtSeconds({ iat: "soon" }), null);
    assert.equal(issuedAtSeconds(null), null);
});

test("ages the token against the push's arrival", () => {
    const at = "2026-11-21T13:10:46.000Z";
    const received = Date.parse(at) / 1000;
    assert.equal(tokenAge(received - 12, at).age, 12);
    assert.equal(tokenAge(received - 12, at).refreshDue, false);
    assert.equal(tokenAge(received - 25 * 60, at).refreshDue, true);
    assert.equal(tokenAge(received - 25 * 60, at).expired, false);
    assert.equal(tokenAge(received - 61 * 60, at).expired, true);
    assert.equal(tokenAge(received + 30, at).future, true);
    assert.equal(tokenAge(null, at), null);
});
