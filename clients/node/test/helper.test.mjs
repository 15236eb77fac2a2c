// The Node helper as its users use it, against the built binary (MOCK_APNS_BIN, else the checkout's
// .build/debug/mock-apns): `node --test clients/node/test/`.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { attachMockAPNs, startMockAPNs } from '../index.mjs';
import { sendPush } from '../examples/send-push.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const binary = process.env.MOCK_APNS_BIN || path.join(root, '.build/debug/mock-apns');
const newToken = () => randomBytes(32).toString('hex');
const scratch = () => mkdtempSync(path.join(os.tmpdir(), 'mock-apns-node-'));

describe('a started server', () => {
  let mock;
  before(async () => { mock = await startMockAPNs({ binary }); });
  after(() => mock.stop());
  beforeEach(() => mock.beginTest());

  test('names everything a provider needs', () => {
    assert.match(mock.apnsURL, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.match(mock.caPEM, /BEGIN CERTIFICATE/);
    assert.ok(existsSync(mock.keyFile));
    assert.equal(mock.env.MOCK_APNS_URL, mock.apnsURL);
    assert.match(mock.channelsURL, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(mock.env.MOCK_APNS_CHANNELS_URL, mock.channelsURL);
    assert.equal(mock.env.MOCK_APNS_KEY_ID, 'TESTKEY001');
  });

  test('expectPush resolves to the matching records', async () => {
    const token = newToken();
    assert.equal(await sendPush(mock, token), 200);
    const [record] = await mock.expectPush({ token, topic: 'com.example.app', pushType: 'alert' });
    assert.equal(record.payloadJSON.aps.alert.title, 'Hello');
  });

  test('a missed expectation is an AssertionError naming the nearest miss', async () => {
    const token = newToken();
    await sendPush(mock, token, { topic: 'com.example.other' });
    await assert.rejects(mock.expectPush({ token, topic: 'com.example.app', timeout: '300ms' }), (error) => {
      assert.ok(error instanceof assert.AssertionError);
      assert.match(error.message,
        /^expected 1 push matching token:[0-9a-f]+, topic:com\.example\.app, within 300ms; got 0\./);
      assert.match(error.message,
        /Nearest: #\d+ at [\d:.]+ — topic was com\.example\.other \(expected com\.example\.app\)/);
      assert.match(error.message, /received:\n {2}#\d+ alert com\.example\.other → /);
      return true;
    });
  });

  test('expectNoPush fails on the push that came, and passes when none does', async () => {
    const token = newToken();
    await mock.expectNoPush({ token, within: '100ms' });
    await sendPush(mock, token);
    await assert.rejects(mock.expectNoPush({ token, within: '200ms' }),
      /expected no push matching token:[0-9a-f]+, within 200ms; got #/);
  });

  test('where, a push sent twice, reset, and the watermark', async () => {
    const token = newToken();
    await sendPush(mock, token, { payload: { aps: { alert: 'one' } } });
    await sendPush(mock, token, { payload: { aps: { alert: 'two' } } });
    const [two] = await mock.expectPush({ token, where: (r) => r.payloadJSON.aps.alert === 'two' });
    assert.equal(two.payloadJSON.aps.alert, 'two');
    await assert.rejects(mock.expectPush({ token }), /expected 1 push matching token:.*; got 2\./);
    await mock.beginTest();
    assert.deepEqual(await mock.records({ token }), []);
    await mock.reset();
    assert.deepEqual(await mock.records(), []);
    assert.equal((await mock.updatePhone(token, { online: false })).state.online, false);
    assert.equal((await mock.phone(token)).state.online, false);
    assert.equal((await mock.clock.advance('9h')).offset, '9h');
    assert.deepEqual(await mock.activities(), []);
  });

  test('a bad scenario names file, line and field', async () => {
    const folder = scratch();
    writeFileSync(path.join(folder, 'bad.yaml'), 'name: bad\ndevices:\n  - token: abc\n');
    await assert.rejects(mock.loadScenario(path.join(folder, 'bad.yaml')), (error) => {
      assert.ok(error.message.startsWith(`${path.join(folder, 'bad.yaml')}:3:`), error.message);
      assert.match(error.message, /devices\[0\]\.token: /);
      return true;
    });
  });
});

test('attach mode starts nothing, never resets, and keeps tests apart by watermark', async () => {
  const owner = await startMockAPNs({ binary });
  try {
    const earlier = newToken();
    await sendPush(owner, earlier);
    const attached = await attachMockAPNs({ controlURL: owner.controlURL });
    assert.ok(attached.attached);
    assert.equal(attached.pid, owner.pid);
    assert.deepEqual(await attached.records(), [], 'a record from before the test is not this test\'s');
    await assert.rejects(attached.reset(), /attached .* never reset/);
    const token = newToken();
    await sendPush(attached, token);
    assert.equal((await attached.expectPush({ token })).length, 1);
    assert.equal((await owner.records()).length, 2);
    await attached.stop();
    assert.equal((await owner.records()).length, 2, 'stop() of an attached handle leaves the server running');
  } finally {
    await owner.stop();
  }
});

test('a binary that exits at start fails fast with its status and the log tail', async () => {
  const fake = path.join(scratch(), 'fake-mock-apns');
  writeFileSync(fake, "#!/bin/sh\necho 'fake: cannot open the CA file' >&2\nexit 3\n");
  chmodSync(fake, 0o755);
  await assert.rejects(startMockAPNs({ binary: fake }),
    /exited with status 3 before it was ready\. The end of its log .*\n {2}fake: cannot open the CA file/);
});

test('a wrong binary path says how to install it', async () => {
  await assert.rejects(startMockAPNs({ binary: '/nonexistent/mock-apns' }), (error) => {
    assert.equal(error.code, 'MOCK_APNS_MISSING');
    assert.match(error.message, /the mock-apns binary \/nonexistent\/mock-apns does not exist: install it/);
    return true;
  });
});

test('a port in use is a clear error', async () => {
  const taken = net.createServer();
  await new Promise((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address();
  try {
    await assert.rejects(startMockAPNs({ binary, args: ['--port', String(port)] }),
      new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port} for the APNs port: the port is already in use`));
  } finally {
    taken.close();
  }
});

test('a control URL that answers something else is a clear error', async () => {
  const page = http.createServer((request, response) => response.end('<html>not a mock</html>'));
  await new Promise((resolve) => page.listen(0, '127.0.0.1', resolve));
  try {
    await assert.rejects(attachMockAPNs({ controlURL: `http://127.0.0.1:${page.address().port}` }),
      /answered 200 with something that is not mock-apns's JSON/);
  } finally {
    page.close();
  }
});

test('a killed parent leaves no mock-apns process', async () => {
  const script = `
    const { startMockAPNs } = require(${JSON.stringify(path.join(here, '../index.cjs'))});
    startMockAPNs({ binary: ${JSON.stringify(binary)} }).then((mock) => {
      console.log('PID=' + mock.pid);
      setInterval(() => {}, 1000);
    });`;
  const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = await new Promise((resolve, reject) => {
    let output = '';
    parent.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /PID=(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    parent.on('exit', () => reject(new Error(`the parent ended first: ${output}`)));
  });
  parent.kill('SIGKILL');
  // Not our child, so there is no exit event to wait on (Node has no pidfd): /proc is checked every 100 ms, and
  // the process counts as gone once it has ended (a zombie waiting for its new parent to reap it, or reaped).
  const gone = await new Promise((resolve) => {
    const deadline = Date.now() + 15000;
    const check = () => {
      if (!existsSync(`/proc/${pid}`) || isZombie(pid)) return resolve(true);
      if (Date.now() > deadline) return resolve(false);
      setTimeout(check, 100);
    };
    check();
  });
  assert.ok(gone, `mock-apns (pid ${pid}) still runs 15 s after its parent was killed`);
});

function isZombie(pid) {
  try {
    return /\nState:\s+Z/.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return true;
  }
}

test('CommonJS and ESM export the same helper', () => {
  const require = createRequire(import.meta.url);
  const common = require('../index.cjs');
  assert.equal(common.startMockAPNs, startMockAPNs);
  assert.equal(common.attachMockAPNs, attachMockAPNs);
});
