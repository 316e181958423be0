// Floods at the agent WebSocket: a connection sending garbage is logged a bounded number of lines (the rest counted)
// and closed (1008); a frame over checkbridge.agentd.max_message_bytes (1 MiB) closes its connection (1009); six
// sessions sending the largest allowed frames leave /health answering. No real agent is needed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { eventually, getJson } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { AGENT_PASSWORD, agentInstanceFor } from '../helpers/sensu-agent.js';

const HOST = { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } } };
const AUTH = 'Basic ' + Buffer.from(`agent:${AGENT_PASSWORD}`).toString('base64');
const SENDERS = fileURLToPath(new URL('../bench/load/frame-senders.js', import.meta.url));

function open(url: string, name: string): Promise<WebSocket> {
  const ws = new WebSocket(url, {
    headers: { 'Sensu-AgentName': name, 'Sensu-Namespace': 'default', 'Sensu-User': 'agent', authorization: AUTH },
    perMessageDeflate: false,
  });
  ws.on('error', () => undefined);
  return new Promise((resolve, reject) => ws.once('open', () => resolve(ws)).once('unexpected-response', () => reject(new Error(`${name} refused`))));
}

/** The close code the backend gave, or 'open' when none came within `ms`. */
const closeCode = (ws: WebSocket, ms: number) =>
  Promise.race([new Promise<number>((resolve) => ws.once('close', (code) => resolve(code))), sleep(ms).then(() => 'open' as const)]);

test('100,000 one-byte frames: a bounded number of log lines, the rest counted, the connection closed (1008); refused events are counted too', async (t) => {
  const { agentd, v2, daemon } = await agentInstanceFor(t, HOST);
  const ws = await open(agentd, 'garbage-1');
  const closed = closeCode(ws, 30_000);
  for (let i = 0; i < 100_000; i++) ws.send(Buffer.from('x'));
  assert.equal(await closed, 1008, 'closed as a policy violation');
  const summary = await daemon.waitFor((l) => l.msg === 'agent messages refused (counted, not logged one by one)' && l.agent === 'garbage-1');
  assert.ok(Number(summary.total) >= 1000, `the count is reported: ${JSON.stringify(summary)}`);
  const lines = daemon.logs.filter((l) => l.agent === 'garbage-1' && Number(l.level) >= 40);
  assert.ok(lines.length < 20, `log lines for the connection: ${lines.length}`);
  assert.equal((await getJson(`${v2}/health`)).status, 200);

  // Refused events (not malformed) are counted the same way; the connection stays.
  const auth = `Bearer ${await adminToken(v2)}`;
  const sender = await open(agentd, 'events-1');
  const now = Math.floor(Date.now() / 1000);
  const entity = { metadata: { name: 'events-1', namespace: 'default' }, entity_class: 'agent' };
  const refusedEvent = Buffer.from(
    `event\n${JSON.stringify({ entity, check: { metadata: { name: 'disk' }, proxy_entity_name: 'cb-host', output: 'x', status: 1, interval: 60, executed: now } })}`,
  );
  for (let i = 0; i < 50; i++) sender.send(refusedEvent);
  sender.send(
    Buffer.from(`event\n${JSON.stringify({ entity, check: { metadata: { name: 'after' }, output: 'ok', status: 0, interval: 60, executed: now } })}`),
  );
  assert.equal(
    (
      await eventually(
        () => call(`${v2}/api/core/v2/namespaces/default/events/events-1/after`, 'GET', auth),
        (r) => r.status === 200,
      )
    ).status,
    200,
  );
  assert.equal(sender.readyState, WebSocket.OPEN, 'refused events do not close the connection');
  assert.ok(daemon.logs.filter((l) => l.agent === 'events-1' && Number(l.level) >= 40).length <= 11);
  sender.close();
  const counted = await daemon.waitFor((l) => l.msg === 'agent messages refused (counted, not logged one by one)' && l.agent === 'events-1');
  assert.deepEqual([counted.refused, counted.total], [40, 50]);
});

test('a frame over 1 MiB closes its connection (1009, logged); six sessions of twenty largest-allowed frames leave /health answering', async (t) => {
  const { agentd, v2, daemon } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const big = await open(agentd, 'big-frame');
  const closed = closeCode(big, 20_000);
  big.send(Buffer.concat([Buffer.from('event\n'), Buffer.alloc(1024 * 1024, 0x20)]));
  assert.equal(await closed, 1009);
  await daemon.waitFor((l) => String(l.msg).startsWith('agent message refused: larger than checkbridge.agentd.max_message_bytes') && l.agent === 'big-frame');

  // The senders run in their own process: masking 240 MB of frames would otherwise stall this one's probe.
  const child = spawn(process.execPath, [SENDERS, agentd, AGENT_PASSWORD, 'flood', '6', '20', String(1024 * 1024 - 4096)], { stdio: 'ignore' });
  t.after(() => void child.kill('SIGKILL'));
  const latencies: number[] = [];
  const stored = async (name: string) => (await call(`${v2}/api/core/v2/namespaces/default/events/${name}/done`, 'GET', auth)).status === 200;
  const deadline = Date.now() + 120_000;
  for (let i = 0; i < 6 && Date.now() < deadline;) {
    const started = performance.now();
    assert.equal((await getJson(`${v2}/health`)).status, 200);
    latencies.push(performance.now() - started);
    if (await stored(`flood-${i}`)) i += 1;
  }
  for (let i = 0; i < 6; i++) assert.ok(await stored(`flood-${i}`), `flood-${i}'s frames all stored`);
  const event = await call(`${v2}/api/core/v2/namespaces/default/events/flood-0/big`, 'GET', auth);
  assert.ok(String(event.body.check.output).length > 1_000_000, 'the largest allowed frame is taken whole');
  // Generous, for two loaded cores: frames of 9 MB kept /health's p50 at 1.2 s and its max at 6 s.
  assert.ok(Math.max(...latencies) < 2000, `/health's slowest answer: ${Math.round(Math.max(...latencies))} ms of ${latencies.length}`);
});
