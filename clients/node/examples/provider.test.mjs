// A provider test with node:test, as in docs/testing-node.md: `node --test clients/node/examples/`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startMockAPNs } from '../index.mjs';
import { sendPush } from './send-push.mjs';

let mock;
before(async () => { mock = await startMockAPNs(); });
after(() => mock.stop());

test('the provider sends the order alert', async () => {
  const token = randomBytes(32).toString('hex');
  assert.equal(await sendPush(mock, token), 200);
  const [push] = await mock.expectPush({ token, topic: 'com.example.app' });
  assert.equal(JSON.parse(push.payload).aps.alert.title, 'Hello');
});
