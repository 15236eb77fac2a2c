// A provider's push as a Node provider sends it: node:http2, a provider token signed ES256 with node:crypto, the
// mock's CA trusted. The examples and the helper's suite send with it.
import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';

const base64url = (data) => Buffer.from(data).toString('base64url');

export function providerToken({ keyFile, keyID, teamID }) {
  const header = base64url(JSON.stringify({ alg: 'ES256', kid: keyID }));
  const claims = base64url(JSON.stringify({ iss: teamID, iat: Math.floor(Date.now() / 1000) }));
  const key = createPrivateKey(readFileSync(keyFile));
  const signature = sign('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' });
  return `${header}.${claims}.${base64url(signature)}`;
}

/** Sends one push to `token` and resolves to the answer's status. */
export function sendPush(mock, token, { topic = 'com.example.app', payload, pushType = 'alert' } = {}) {
  return new Promise((resolve, reject) => {
    const session = http2.connect(mock.apnsURL, { ca: mock.caPEM });
    session.on('error', reject);
    const request = session.request({
      ':method': 'POST',
      ':path': `/3/device/${token}`,
      'apns-topic': topic,
      'apns-push-type': pushType,
      authorization: `bearer ${providerToken(mock)}`,
    });
    request.on('response', (headers) => {
      request.resume();
      request.on('end', () => {
        session.close();
        resolve(headers[':status']);
      });
    });
    request.on('error', reject);
    request.end(JSON.stringify(payload || { aps: { alert: { title: 'Hello', body: 'from the provider' } } }));
  });
}
