'use strict';
// mock-apns for Node tests (Node >= 18, no dependencies): startMockAPNs() starts the binary on free ports and waits
// for its `serve --ready-json` line; attachMockAPNs() uses a running one (MOCK_APNS_CONTROL_URL, as `mock-apns run`
// sets it). Both resolve to the same handle: URLs, CA, key, env, expectPush/expectNoPush on the server-side wait
// (no polling), records, reset, stop. A failed expectation is an assert.AssertionError worded as the Swift helpers'
// and the pytest plugin's.

const assert = require('node:assert');
const childProcess = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const text = require('./lib/text.cjs');

const INSTALL_HINT =
  'install it (in a mock-apns checkout: scripts/install, which puts it in ~/.local/bin) or name it with ' +
  'MOCK_APNS_BIN=/path/to/mock-apns (or the binary option)';
// JavaScript names for the control API's filters; other keys go as written (device, q, warnings, status, ...).
const FILTER_NAMES = { pushType: 'pushType', apnsID: 'apnsID', push_type: 'pushType', apns_id: 'apnsID' };
const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/;

/** Something went wrong starting, reaching or understanding mock-apns; the message says what to do. */
class MockAPNsError extends Error {
  constructor(message, details = {}) {
    super(message);
    this.name = 'MockAPNsError';
    Object.assign(this, details);
  }
}

/** `value` as the control API writes durations: '5s' stays, a number of milliseconds becomes '250ms'. */
function durationText(value) {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return `${value}ms`;
  if (typeof value === 'string' && DURATION.test(value)) return value.trim();
  throw new TypeError(`a duration is a number of milliseconds or text such as '250ms', '5s', '1m', got ${value}`);
}

function durationMilliseconds(value) {
  const [, number, unit = 's'] = DURATION.exec(durationText(value));
  return Number(number) * { ms: 1, s: 1000, m: 60000, h: 3600000 }[unit];
}

/** The executable to start: `binary` (a path, or a name on PATH), else $MOCK_APNS_BIN, else mock-apns on PATH. */
function findBinary(binary) {
  const name = binary || process.env.MOCK_APNS_BIN || 'mock-apns';
  const executable = (file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (name.includes('/')) {
    if (executable(name)) return path.resolve(name);
    const why = fs.existsSync(name) ? 'is not an executable file' : 'does not exist';
    throw new MockAPNsError(`the mock-apns binary ${name} ${why}: ${INSTALL_HINT}`, { code: 'MOCK_APNS_MISSING' });
  }
  for (const folder of (process.env.PATH || '').split(path.delimiter)) {
    if (folder && executable(path.join(folder, name))) return path.join(folder, name);
  }
  throw new MockAPNsError(`no ${name} on PATH: ${INSTALL_HINT}`, { code: 'MOCK_APNS_MISSING' });
}

function logTail(file, lines = 20) {
  try {
    const kept = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(-lines);
    return kept.length ? kept.map((line) => `  ${line}`).join('\n') : '  (empty)';
  } catch (error) {
    return `  (cannot read it: ${error.message})`;
  }
}

/** The control API at `url` over HTTP/1.1 (global fetch). */
class Control {
  constructor(url, token) {
    this.url = url.replace(/\/+$/, '');
    this.token = token || null;
  }

  async call(method, route, { query = [], body, accept = [], timeoutMs = 30000 } = {}) {
    const pairs = query.filter(([, value]) => value !== undefined && value !== null).map(([k, v]) => [k, String(v)]);
    const target = this.url + route + (pairs.length ? `?${new URLSearchParams(pairs)}` : '');
    const headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let answer;
    let raw;
    try {
      answer = await fetch(target, {
        method,
        headers,
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      raw = await answer.text();
    } catch (error) {
      throw new MockAPNsError(
        `cannot reach the mock-apns control API at ${this.url} (${error.cause?.code || error.message}): is it ` +
          'running? Check the URL (MOCK_APNS_CONTROL_URL) or let startMockAPNs() start one',
      );
    }
    let parsed;
    try {
      parsed = JSON.parse(raw || 'null');
    } catch {
      throw new MockAPNsError(
        `${method} ${this.url}${route} answered ${answer.status} with something that is not mock-apns's JSON ` +
          `(${JSON.stringify(raw.slice(0, 120))}): is ${this.url} the control API of mock-apns (not its APNs ` +
          'port, not another service)?',
      );
    }
    if (answer.status === 401) {
      throw new MockAPNsError(
        `the mock-apns control API at ${this.url} wants a bearer token: set MOCK_APNS_CONTROL_TOKEN (or controlToken)`,
      );
    }
    if (answer.status >= 400 && !accept.includes(answer.status)) {
      const error = (parsed && parsed.error) || raw;
      throw new MockAPNsError(`${method} ${route}: ${answer.status} ${error}`, { status: answer.status, body: parsed });
    }
    return { status: answer.status, body: parsed };
  }

  async info() {
    const { body } = await this.call('GET', '/v1/info');
    if (!body || typeof body !== 'object' || !('apnsURL' in body) || !('mode' in body)) {
      throw new MockAPNsError(
        `${this.url}/v1/info answered ${JSON.stringify(body).slice(0, 120)}, not mock-apns's info: is ${this.url} ` +
          'the control API of mock-apns?',
      );
    }
    if (body.mode !== 'live') {
      throw new MockAPNsError(`${this.url} serves a journal file read back (mock-apns inspect), not a live mock`);
    }
    return body;
  }
}

/** Starts `mock-apns serve` and resolves to its ready line; rejects with the exit status and log tail. */
function spawnServer(options) {
  const executable = findBinary(options.binary);
  const args = ['serve', '--port', '0', '--control-port', '0', '--ready-json', '--exit-on-stdin-close'];
  if (options.scenario) args.push('--scenario', options.scenario);
  if (options.environment) args.push('--environment', options.environment);
  if (options.controlToken) args.push('--control-token', options.controlToken);
  args.push(...(options.args || []));
  const logFile = options.logFile || path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mock-apns-')), 'serve.log');
  const log = fs.openSync(logFile, 'a');
  const startTimeout = durationMilliseconds(options.startTimeout ?? '30s');
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = childProcess.spawn(executable, args, { stdio: ['pipe', 'pipe', log] });
    } finally {
      fs.closeSync(log);
    }
    let output = '';
    let settled = false;
    const fail = (why) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      const tail = logTail(logFile);
      reject(new MockAPNsError(`mock-apns (${args.join(' ')}) ${why}. The end of its log (${logFile}):\n${tail}`));
    };
    const timer = setTimeout(
      () => fail(`did not print its ready line within ${options.startTimeout ?? '30s'}`), startTimeout);
    child.on('error', (error) => {
      settled = true;
      clearTimeout(timer);
      reject(new MockAPNsError(`cannot start ${executable}: ${error.message}: ${INSTALL_HINT}`,
        { code: 'MOCK_APNS_MISSING' }));
    });
    child.on('exit', (code, signal) =>
      fail(signal ? `was ended by ${signal} before it was ready` : `exited with status ${code} before it was ready`));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const end = output.indexOf('\n');
      if (end < 0 || settled) return;
      let ready;
      try {
        ready = JSON.parse(output.slice(0, end));
      } catch {
        const line = JSON.stringify(output.slice(0, 200));
        fail(`printed ${line} instead of a JSON ready line (is it a mock-apns with serve --ready-json?)`);
        return;
      }
      settled = true;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      // Neither the server nor its pipes keep this process alive; when it ends, the closed pipe ends the server.
      child.unref();
      child.stdin.unref?.();
      child.stdout.unref?.();
      resolve({ child, ready, logFile });
    });
  });
}

class MockAPNs {
  constructor(control, info, { child = null, logFile = null, defaultTimeout = '5s' } = {}) {
    this.control = control;
    this.child = child;
    this.logFile = logFile;
    this.attached = child === null;
    this.defaultTimeout = defaultTimeout;
    this.apnsURL = info.apnsURL;
    // The broadcast channel management URL (null from a server older than channels).
    this.channelsURL = info.channelsURL || null;
    this.controlURL = control.url;
    this.caFile = info.caFile || null;
    this.caPEM = this.caFile ? fs.readFileSync(this.caFile, 'utf8') : null;
    this.keyFile = info.keyFile || null;
    this.keyID = info.keyID || 'TESTKEY001';
    this.teamID = info.teamID || 'TESTTEAM01';
    this.environment = info.environment || 'sandbox';
    this.version = info.version || '';
    this.pid = info.pid ?? null;
    // Records with a greater sequence number belong to the current test (beginTest).
    this.since = null;
    this.clock = {
      now: async () => (await control.call('GET', '/v1/clock')).body,
      advance: async (by) => (await control.call('POST', '/v1/clock', { body: { advance: by } })).body,
      set: async (to) => (await control.call('POST', '/v1/clock', { body: { set: to } })).body,
      reset: async () => (await control.call('POST', '/v1/clock', { body: { reset: true } })).body,
    };
  }

  /** The MOCK_APNS_* variables `mock-apns run` sets, for a provider started as a child process. */
  get env() {
    const { hostname, port } = new URL(this.apnsURL);
    const variables = {
      MOCK_APNS_URL: this.apnsURL,
      MOCK_APNS_HOST: hostname.replace(/^\[|\]$/g, ''),
      MOCK_APNS_PORT: port,
      MOCK_APNS_CONTROL_URL: this.controlURL,
      MOCK_APNS_KEY_ID: this.keyID,
      MOCK_APNS_TEAM_ID: this.teamID,
    };
    if (this.channelsURL) variables.MOCK_APNS_CHANNELS_URL = this.channelsURL;
    if (this.caFile) variables.MOCK_APNS_CA_FILE = this.caFile;
    if (this.keyFile) variables.MOCK_APNS_KEY_FILE = this.keyFile;
    if (this.control.token) variables.MOCK_APNS_CONTROL_TOKEN = this.control.token;
    return variables;
  }

  /** Empty journal, the starting scenario's world and rules ({to: 'loaded'}: the last loaded), real time. */
  async reset({ to } = {}) {
    if (this.attached) {
      throw new MockAPNsError(
        'this mock-apns is attached (MOCK_APNS_CONTROL_URL): it is shared, so it is never reset; tests are kept ' +
          'apart by the journal sequence numbers instead (beginTest)',
      );
    }
    await this.control.call('POST', '/v1/reset', { query: to ? [['to', to]] : [] });
    this.since = null;
  }

  /** From now on records(), expectPush() and expectNoPush() see only records that arrive after this call. */
  async beginTest() {
    const { body } = await this.control.call('GET', '/v1/requests', { query: [['limit', 1]] });
    this.since = body.journal.newest;
  }

  query(filters) {
    const query = [];
    for (const [name, value] of Object.entries(filters)) {
      if (value !== undefined && value !== null) query.push([FILTER_NAMES[name] || name, value]);
    }
    if (this.since !== null && this.since !== undefined && !query.some(([name]) => name === 'since')) {
      query.push(['since', this.since]);
    }
    return query;
  }

  /** The records since the test began matching `filters`, oldest first, as GET /v1/requests answers them. */
  async records(filters = {}) {
    return (await this.control.call('GET', '/v1/requests', { query: this.query(filters) })).body.records;
  }

  async received() {
    const query = [['view', 'summary'], ['limit', text.RECEIVED_LIMIT]];
    if (this.since !== null && this.since !== undefined) query.push(['since', this.since]);
    return (await this.control.call('GET', '/v1/requests', { query })).body.records;
  }

  async wait(filters, count, limit, where) {
    const deadline = Date.now() + durationMilliseconds(limit);
    let needed = count;
    for (;;) {
      const remaining = Math.max(0, deadline - Date.now());
      const { status, body } = await this.control.call('GET', '/v1/requests/wait', {
        query: [...this.query(filters), ['count', needed], ['timeout', `${remaining}ms`]],
        accept: [408],
        timeoutMs: remaining + 30000,
      });
      const records = body.records || [];
      const matched = where ? records.filter(where) : records;
      const unmatched = where ? records.filter((record) => !where(record)) : [];
      if (matched.length >= count || status === 408 || !where) return { matched, answer: body, unmatched };
      needed = records.length + count - matched.length;
    }
  }

  /** Waits on the server until exactly `count` pushes match; resolves to them, else an AssertionError. */
  async expectPush({ count = 1, timeout, where, ...filters } = {}) {
    if (!Number.isInteger(count) || count < 1) {
      throw new TypeError(`count must be a whole number of at least 1 (expectNoPush for none), got ${count}`);
    }
    const limit = durationText(timeout ?? this.defaultTimeout);
    const { matched, answer, unmatched } = await this.wait(filters, count, limit, where);
    if (matched.length === count) {
      const all = (await this.records(filters)).filter((record) => !where || where(record));
      if (all.length === count) return matched;
      matched.splice(0, matched.length, ...all);
    }
    const received = await this.received();
    const message = text.expectPushFailure(filters, count, limit, matched, answer, unmatched, where, received);
    throw new assert.AssertionError({ message, actual: matched.length, expected: count, operator: 'expectPush' });
  }

  /** Watches `within` on the server that no push matches; an AssertionError naming the first that did. */
  async expectNoPush({ within = '1s', where, ...filters } = {}) {
    const limit = durationText(within);
    const { matched } = await this.wait(filters, 1, limit, where);
    if (matched.length) {
      const message = text.expectNoPushFailure(filters, limit, matched, await this.received());
      throw new assert.AssertionError({ message, actual: matched.length, expected: 0, operator: 'expectNoPush' });
    }
  }

  /** PUT /v1/scenario with a file's text (relative paths from its folder) or a document. */
  async loadScenario(scenario, { base } = {}) {
    let file = null;
    let body = scenario;
    if (!scenario.includes('\n') && /\.(ya?ml|json)$/.test(scenario)) {
      file = path.resolve(scenario);
      try {
        body = fs.readFileSync(file, 'utf8');
      } catch (error) {
        throw new MockAPNsError(`cannot read the scenario ${file}: ${error.message}`);
      }
      base = base || path.dirname(file);
    }
    try {
      return (await this.control.call('PUT', '/v1/scenario', { query: base ? [['base', base]] : [], body })).body;
    } catch (error) {
      const answer = error.body || {};
      if (!answer.line) throw error;
      const field = answer.field ? `${answer.field}: ` : '';
      throw new MockAPNsError(`${file || 'scenario'}:${answer.line}:${answer.column || 1}: ${field}${answer.message}`);
    }
  }

  async addDevices(...devices) {
    return (await this.control.call('POST', '/v1/devices', { body: devices })).body.devices;
  }

  async unregisterDevice(token) {
    return (await this.control.call('POST', `/v1/devices/${token}/unregister`)).body;
  }

  async addRules(...rules) {
    return (await this.control.call('POST', '/v1/rules', { body: rules })).body;
  }

  async activities(filters = {}) {
    return (await this.control.call('GET', '/v1/activities', { query: Object.entries(filters) })).body.activities;
  }

  async phone(id) {
    return (await this.control.call('GET', `/v1/phones/${id}`)).body;
  }

  async updatePhone(id, changes) {
    return (await this.control.call('PATCH', `/v1/phones/${id}`, { body: changes })).body;
  }

  /** POST /v1/verify: the scenario's expect:; an AssertionError with every failure's details. */
  async verify() {
    const report = (await this.control.call('POST', '/v1/verify')).body;
    if (!report.passed) {
      const message = text.verifyFailure(report);
      throw new assert.AssertionError({ message, actual: false, expected: true, operator: 'verify' });
    }
    return report;
  }

  /** The journal since the test began, one line per record. */
  async journalText() {
    const query = [['view', 'summary'], ['limit', 200]];
    if (this.since !== null && this.since !== undefined) query.push(['since', this.since]);
    const records = (await this.control.call('GET', '/v1/requests', { query })).body.records;
    return records.map(text.summaryLine).join('\n') || '(no records since the test started)';
  }

  /** Stops a server this handle started: closes its standard input (a graceful stop), SIGTERM, then SIGKILL. */
  async stop({ graceMs = 5000 } = {}) {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const ended = new Promise((resolve) => child.once('exit', resolve));
    child.ref();
    child.stdin.end();
    const timeout = (ms) => new Promise((resolve) => setTimeout(() => resolve('timeout'), ms).unref());
    if ((await Promise.race([ended, timeout(graceMs)])) === 'timeout') {
      child.kill('SIGTERM');
      if ((await Promise.race([ended, timeout(graceMs)])) === 'timeout') child.kill('SIGKILL');
      await ended;
    }
  }
}

/** Starts mock-apns on free ports: options binary, scenario, environment, args, startTimeout, controlToken,
 * logFile, defaultTimeout. */
async function startMockAPNs(options = {}) {
  const { child, ready, logFile } = await spawnServer(options);
  const mock = new MockAPNs(new Control(ready.controlURL, options.controlToken), ready, {
    child,
    logFile,
    defaultTimeout: options.defaultTimeout ?? '5s',
  });
  await mock.beginTest();
  return mock;
}

/** Uses the mock-apns whose control API is at `controlURL` (else $MOCK_APNS_CONTROL_URL); never resets it. */
async function attachMockAPNs(options = {}) {
  const url = options.controlURL || process.env.MOCK_APNS_CONTROL_URL;
  if (!url) throw new MockAPNsError('attachMockAPNs needs a control URL: pass controlURL or set MOCK_APNS_CONTROL_URL');
  const control = new Control(url, options.controlToken || process.env.MOCK_APNS_CONTROL_TOKEN);
  const info = await control.info();
  info.caFile = info.caFile || process.env.MOCK_APNS_CA_FILE;
  info.keyFile = info.keyFile || process.env.MOCK_APNS_KEY_FILE;
  const mock = new MockAPNs(control, info, { defaultTimeout: options.defaultTimeout ?? '5s' });
  await mock.beginTest();
  return mock;
}

module.exports = { startMockAPNs, attachMockAPNs, MockAPNs, MockAPNsError, Control, durationText };
