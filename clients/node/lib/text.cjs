'use strict';
// Failure text worded as the Swift helpers', `mock-apns run`'s and the pytest plugin's: what was expected, what
// arrived, the nearest miss field by field, then what was received.

const RECEIVED_LIMIT = 10;
const API_NAMES = { push_type: 'pushType', apns_id: 'apnsID' };

const short = (token) => (!token ? '-' : token.length <= 14 ? token : `${token.slice(0, 6)}…${token.slice(-6)}`);
const pushes = (count) => (count === 1 ? '1 push' : `${count} pushes`);

function filtersText(filters) {
  return Object.entries(filters)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name, value]) => `${API_NAMES[name] || name}:${value}`)
    .join(', ');
}

function summaryLine(record) {
  if ((record.kind || 'push') !== 'push') return `#${record.sequence} ${record.kind}`;
  const status = record.status ?? record.response?.status ?? null;
  let result = status === null ? 'no answer' : String(status);
  if (record.reason) result += ` ${record.reason}`;
  if (record.device) result += `, phone ${typeof record.device === 'object' ? record.device.outcome : record.device}`;
  const shown = record.text ? ` ${record.text}` : '';
  const what = `${record.pushType || '-'} ${record.topic || '-'}`;
  return `#${record.sequence} ${what} → ${short(record.token)}: ${result}${shown}`;
}

function nearest(answer) {
  const miss = (answer.nearMisses || [])[0];
  if (!miss) return 'Nearest: none (no other push differs in one field only)';
  const at = String(miss.record?.receivedAt || '').slice(11, 23);
  const when = at ? ` at ${at}` : '';
  return `Nearest: #${miss.sequence}${when} — ${miss.field} was ${miss.actual} (expected ${miss.expected})`;
}

function receivedLines(records) {
  if (!records.length) return ['received: nothing since the test started'];
  const shown = records.length >= RECEIVED_LIMIT ? ` (the newest ${records.length})` : '';
  return [`received${shown}:`, ...records.map((record) => `  ${summaryLine(record)}`)];
}

function expectPushFailure(filters, count, limit, found, answer, unmatched, where, received) {
  const matching = filtersText(filters);
  let expected = pushes(count) + (matching ? ` matching ${matching}` : '');
  if (where) expected += ` and where=${where.name || 'predicate'}`;
  const lines = [`expected ${expected}, within ${limit}; got ${found.length}.`];
  if (found.length > count) lines.push(`more arrived than expected: ${found.map((r) => `#${r.sequence}`).join(', ')}`);
  if (unmatched.length) {
    const sequences = unmatched.map((r) => `#${r.sequence}`).join(', ');
    lines.push(`${unmatched.length} matched the filters but not the where condition: ${sequences}`);
  }
  if (found.length < count) lines.push(nearest(answer));
  return [...lines, ...receivedLines(received)].join('\n');
}

function expectNoPushFailure(filters, limit, found, received) {
  const first = found[0];
  const matching = filtersText(filters) || 'anything';
  const line = `expected no push matching ${matching}, within ${limit}; got #${first.sequence}: ${summaryLine(first)}`;
  return [line, ...receivedLines(received)].join('\n');
}

function verifyFailure(report) {
  const lines = [];
  for (const item of report.items || []) {
    if (item.passed) continue;
    lines.push(`✗ ${item.name}: ${item.summary}`, ...(item.details || []).map((detail) => `    ${detail}`));
  }
  lines.push(String(report.summary || ''));
  return lines.join('\n');
}

module.exports = { RECEIVED_LIMIT, filtersText, summaryLine, expectPushFailure, expectNoPushFailure, verifyFailure };
