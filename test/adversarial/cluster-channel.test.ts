// Whatever is NOTIFYed on the cluster channel by someone else with access to the database: pieces that are not
// pieces, JSON that does not parse, unfinished messages by the thousand. Each is dropped with a warning; the channel
// keeps hearing the real messages after them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { postgresFor } from '../servers/postgres.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { until } from '../helpers/wait.js';
import { clusterChannelFor } from '../../src/cluster/index.js';
import { createHmac } from 'node:crypto';

const KEY = "the servers' key";

test('garbage on the cluster channel is dropped with a warning; real messages after it are heard', { timeout: 60_000 }, async (t) => {
  const server = await postgresFor(t);
  if (!server) return;
  const { logger, lines } = capturedLogger();
  const [one, two] = [
    clusterChannelFor(server.url(), 'hostile_channel', logger, () => KEY)!,
    clusterChannelFor(server.url(), 'hostile_channel', logger, () => KEY)!,
  ];
  t.after(() => Promise.all([one.close(), two.close()]));
  await Promise.all([one.start(), two.start()]);
  // Someone else's listener failing on a message does not keep it from the next one, nor end the process.
  two.onMessage(() => {
    throw new Error('a listener that fails');
  });
  const heard: unknown[] = [];
  two.onMessage((m) => heard.push(m));
  // Well-formed requests, unsigned or signed with another key: anyone who can connect to the database may NOTIFY.
  const request = JSON.stringify({ kind: 'agent', namespace: 'default', subscription: 'linux', request: { config: { command: 'id' } } });
  const forged = createHmac('sha256', 'not the key').update(request).digest('hex');
  const hostile = ['garbage', 'x 0 1 {not json', 'y 5 2 {}', 'z -1 3 {}', 'w 0 99999999 {', '', `v 0 1 ${request}`, `s 0 1 ${forged} ${request}`];
  for (const payload of hostile) await server.query(`SELECT pg_notify('hostile_channel', '${payload.replace(/'/g, "''")}')`);
  // Unfinished messages by the thousand: only the latest hundred are held.
  await server.query(`SELECT pg_notify('hostile_channel', 'u' || g || ' 0 2 {') FROM generate_series(1, 5000) g`);
  one.publish({ after: 'garbage' });
  assert.ok(await until(() => heard.length === 1, 20_000), `heard ${heard.length}`);
  assert.deepEqual(heard, [{ after: 'garbage' }]);
  assert.equal(lines.filter((l) => l.msg === 'cluster channel: a message could not be taken, dropped').length, 1);
  const dropped = lines.filter((l) => l.msg === 'cluster channel: a message that does not parse, dropped');
  // Both channels heard each one.
  assert.equal(dropped.length, 2 * hostile.length, JSON.stringify(dropped.map((l) => l.err)));
});
