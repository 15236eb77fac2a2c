// Decoding of a provider token (a JWT) from a record's authorization header. Decoding only: the mock verified it
// when the push arrived (the record's `auth.verified` says so); the page never claims a signature is good.

/** Provider tokens live 60 minutes (apns-reference.md §5, doc). */
export const TOKEN_LIFETIME_SECONDS = 60 * 60;
/** APNs refuses a new token for the same key more often than every 20 minutes (§5, doc). */
export const REFRESH_WINDOW_SECONDS = 20 * 60;

/** The bytes of a base64url text (no padding needed), or null when it is not base64url. */
export function base64urlBytes(text) {
    if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
    const standard = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
    const binary = atob(standard);
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function decodePart(text, name) {
    const raw = base64urlBytes(text);
    if (raw == null) return { error: `the ${name} is not base64url` };
    let json;
    try {
        json = new TextDecoder("utf-8", { fatal: true }).decode(raw);
    } catch {
        return { error: `the ${name} is not UTF-8 text` };
    }
    try {
        return { value: JSON.parse(json), text: json };
    } catch (error) {
        return { error: `the ${name} is not JSON (${error.message})`, text: json };
    }
}

/** The JWT of an `authorization: bearer <jwt>` header value, or null when the value is no bearer token. */
export function bearerToken(headerValue) {
    const match = /^\s*bearer\s+(\S+)\s*$/i.exec(String(headerValue ?? ""));
    return match ? match[1] : null;
}

/**
 * A JWT decoded: `{header, claims, signatureBytes, signatureForm, errors}`. `header` and `claims` are null when
 * they do not decode, with the reason in `errors`; `signatureForm` says `raw R‖S (64 bytes)` or `DER` or what it is.
 */
export function decodeJWT(token) {
    const result = { header: null, claims: null, signatureBytes: 0, signatureForm: null, errors: [] };
    const parts = String(token ?? "").split(".");
    if (parts.length !== 3) {
        result.errors.push(`a JWT has three parts separated by dots; this one has ${parts.length}`);
        return result;
    }
    const header = decodePart(parts[0], "header");
    const claims = decodePart(parts[1], "claims");
    if (header.error) result.errors.push(header.error);
    else result.header = header.value;
    if (claims.error) result.errors.push(claims.error);
    else result.claims = claims.value;
    const signature = base64urlBytes(parts[2]);
    if (signature == null) {
        result.errors.push("the signature is not base64url");
    } else {
        result.signatureBytes = signature.length;
        if (signature.length === 64) result.signatureForm = "raw R‖S (64 bytes)";
        else if (signature[0] === 0x30) result.signatureForm = `DER (${signature.length} bytes)`;
        else result.signatureForm = `${signature.length} bytes, neither raw R‖S nor DER`;
    }
    return result;
}

/** The `iat` claim as seconds since 1970, whether a number or a numeric string (as some clients send), else null. */
export function issuedAtSeconds(claims) {
    const iat = claims?.iat;
    if (typeof iat === "number" && Number.isFinite(iat)) return iat;
    if (typeof iat === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(iat)) return Number(iat);
    return null;
}

/**
 * How old the token was when the push arrived: `{age, expired, future, refreshDue, words}` where `age` is in
 * seconds (receivedAt minus iat), `expired` past the 60-minute lifetime, `refreshDue` past 20 minutes (a newer
 * token could be minted; sooner would be TooManyProviderTokenUpdates), `future` an iat after the push.
 */
export function tokenAge(iatSeconds, receivedAtISO) {
    const received = Date.parse(receivedAtISO) / 1000;
    if (iatSeconds == null || Number.isNaN(received)) return null;
    const age = received - iatSeconds;
    const expired = age > TOKEN_LIFETIME_SECONDS;
    const future = age < 0;
    const refreshDue = age >= REFRESH_WINDOW_SECONDS;
    let words;
    if (future) words = "issued after the push arrived (iat in the future)";
    else if (expired) words = "older than the 60-minute token lifetime: expired";
    else if (refreshDue) words = "within the 60-minute lifetime; past 20 minutes, so a new token may be minted";
    else words = "within the 60-minute lifetime; a new token before 20 minutes would be refused";
    return { age, expired, future, refreshDue, words };
}
