// Password guessing at every door that checks one (`/auth`, the agent WebSocket's Basic auth): one limiter counted
// before the work, password work off the event loop, none for a connection that is gone, and a client certificate
// that must name the agent whatever else is sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import bcrypt from 'bcryptjs';
import { WebSocket } from 'ws';
import { getJson, adminBasic } from '../helpers/instance.js';
import { makeTestCa } from '../helpers/tls.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { AGENT_PASSWORD, agentInstanceFor } from '../helpers/sensu-agent.js';

const HOST = { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] } } };
const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');
const count = (values: number[], status: number) => values.filter((s) => s === status).length;

/** GET /auth from a chosen loopback address: its status and Retry-After. */
export function loginFrom(v2: string, localAddress: string, authorization: string): Promise<{ status: number; retryAfter: string | undefined }> {
  const url = new URL(`${v2}/auth`);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: '/auth', headers: { authorization }, localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

type Tls = { ca: string; cert: string; key: string };
/** An agent handshake from a chosen loopback address: 101 (then closed) or the refusal's status, Retry-After and body. */
export function handshakeFrom(
  agentd: string,
  localAddress: string,
  name: string,
  authorization?: string,
  tls?: Tls,
): Promise<{ status: number; retryAfter?: string; body: string }> {
  const headers = { 'Sensu-AgentName': name, 'Sensu-Namespace': 'default', 'Sensu-Subscriptions': 'linux', ...(authorization ? { authorization } : {}) };
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(agentd, { headers, localAddress, ...tls });
    ws.once('open', () => (ws.close(), resolve({ status: 101, body: '' })));
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'], body }));
    });
    ws.once('error', reject);
  });
}

test('logins: 100 concurrent wrong passwords are not all checked, and /auth and the agent door share one limit', { timeout: 120_000 }, async (t) => {
  const { v2, agentd } = await agentInstanceFor(t, HOST);
  const burst = await Promise.all(Array.from({ length: 100 }, (_, i) => loginFrom(v2, '127.0.0.1', basic('admin', `guess-${i}`))));
  const statuses = burst.map((r) => r.status);
  assert.ok(count(statuses, 401) <= 20, `${count(statuses, 401)} wrong passwords were checked (at most the limit of 20)`);
  assert.equal(count(statuses, 401) + count(statuses, 429), 100, JSON.stringify(statuses));
  assert.ok(
    burst.filter((r) => r.status === 429).every((r) => Number(r.retryAfter) >= 1),
    'every 429 says when to retry',
  );

  // Twenty failures at /auth from one address: that address's handshake, with the right agent password, waits too.
  for (let i = 0; i < 20; i++) assert.equal((await loginFrom(v2, '127.0.0.3', basic('admin', `nope-${i}`))).status, 401);
  const shared = await handshakeFrom(agentd, '127.0.0.3', 'agent-3', basic('agent', AGENT_PASSWORD));
  assert.equal(shared.status, 429, shared.body);
  assert.ok(Number(shared.retryAfter) >= 1, `Retry-After: ${shared.retryAfter}`);

  // Guesses at the agent door from one address: past the limit, 429 without any password work.
  const guesses: number[] = [];
  for (let round = 0; round < 8; round++) {
    const wave = await Promise.all(
      Array.from({ length: 4 }, (_, i) => handshakeFrom(agentd, '127.0.0.4', `guess-${round}-${i}`, basic('agent', `wrong-${round}-${i}`))),
    );
    guesses.push(...wave.map((r) => r.status));
  }
  assert.ok(count(guesses, 401) <= 20 && count(guesses, 429) >= 12, JSON.stringify(guesses));
  // The right password from an address that has not guessed is not held back, at either door.
  assert.equal((await handshakeFrom(agentd, '127.0.0.5', 'agent-5', basic('agent', AGENT_PASSWORD))).status, 101);
  assert.equal((await loginFrom(v2, '127.0.0.5', adminBasic.authorization)).status, 200);
});

test('logins: the owner still signs in during a spray against their name, at /auth and at the agent door', { timeout: 300_000 }, async (t) => {
  const { v2, agentd } = await agentInstanceFor(t, HOST);
  // Five addresses x 20 wrong passwords for admin at /auth, and for agent at the agent door: both names at their limit of 100.
  // Five at once meet the name's four checks at a time now and then: a 429 there is retried after its second.
  const guess = async (attempt: () => Promise<{ status: number }>) => {
    let status: number;
    while ((status = (await attempt()).status) === 429) await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(status, 401);
  };
  await Promise.all(
    Array.from({ length: 5 }, async (_, a) => {
      for (let i = 0; i < 20; i++) {
        await guess(() => loginFrom(v2, `127.0.6.${1 + a}`, basic('admin', `spray-${a}-${i}`)));
        await guess(() => handshakeFrom(agentd, `127.0.7.${1 + a}`, `spray-${a}-${i}`, basic('agent', `spray-${a}-${i}`)));
      }
    }),
  );
  // The name's limit still holds an address that has guessed: one failure elsewhere, then admin waits. On a loaded
  // machine the spray can outlast the limit's 60 s window, its first failures leaving it: each such address then adds
  // one more failure for admin, and the limit must hold again within its count of 100 (a spray of over two minutes
  // leaves none in the window: a hundred and more, then, each a turn of this loop).
  let held = 0;
  for (let i = 0; i < 150 && held !== 429; i++) {
    assert.equal((await loginFrom(v2, `127.0.8.${1 + i}`, basic('nobody', 'x'))).status, 401);
    held = (await loginFrom(v2, `127.0.8.${1 + i}`, basic('admin', `one-more-${i}`))).status;
    assert.ok(held === 401 || held === 429, String(held));
  }
  assert.equal(held, 429, "admin's limit holds an address that has guessed");
  // While the spray goes on, the right passwords from clients that have not guessed get in.
  const during = Array.from({ length: 10 }, (_, i) => loginFrom(v2, `127.0.6.${1 + (i % 5)}`, basic('admin', `again-${i}`)));
  const owner = await loginFrom(v2, '127.0.6.20', adminBasic.authorization);
  const agent = await handshakeFrom(agentd, '127.0.7.20', 'agent-owner', basic('agent', AGENT_PASSWORD));
  assert.ok(
    (await Promise.all(during)).every((r) => r.status === 429),
    'the sprayers still wait',
  );
  assert.equal(owner.status, 200, 'admin signs in from a clean address');
  assert.equal(agent.status, 101, agent.body);
});

test(
  'logins: a cost-12 bcrypt hash under attack at both doors never stalls /health, and work for closed connections is dropped',
  { timeout: 180_000 },
  async (t) => {
    const { v2, agentd, daemon } = await agentInstanceFor(t, HOST);
    const auth = `Bearer ${await adminToken(v2)}`;
    const hash = await bcrypt.hash('slow-pass-1', 12);
    assert.equal((await call(`${v2}/api/core/v2/users/slow`, 'PUT', auth, { username: 'slow', password_hash: hash, groups: [] })).status, 201);

    let attacking = true;
    const answered: number[] = [];
    const poll = (async () => {
      while (attacking) {
        assert.equal((await getJson(`${v2}/health`)).status, 200);
        answered.push(performance.now());
      }
    })();
    // 40 wrong /auth over ten addresses and 16 wrong handshakes over four: on the event loop, ~28 s of bcrypt.
    const logins = Array.from({ length: 40 }, (_, i) => loginFrom(v2, `127.0.1.${1 + (i % 10)}`, basic('slow', `wrong-${i}`)));
    const handshakes = Array.from({ length: 16 }, (_, i) => handshakeFrom(agentd, `127.0.2.${1 + (i % 4)}`, `spray-${i}`, basic('slow', `wrong-${i}`)));
    const statuses = [...(await Promise.all(logins)).map((r) => r.status), ...(await Promise.all(handshakes)).map((r) => r.status)];
    attacking = false;
    await poll;
    const gaps = answered.slice(1).map((at, i) => at - answered[i]!);
    assert.ok(answered.length >= 5, `${answered.length} /health answers during the attack`);
    assert.ok(Math.max(...gaps) < 1000, `the longest wait between two /health answers was ${Math.max(...gaps).toFixed(0)} ms`);
    assert.ok(
      statuses.every((s) => s === 401 || s === 429),
      JSON.stringify(statuses),
    );
    assert.equal((await loginFrom(v2, '127.0.3.1', basic('slow', 'slow-pass-1'))).status, 200, 'the cost-12 hash still signs in');
    // Above the ceiling a hash is refused when written.
    const over = await call(`${v2}/api/core/v2/users/slower`, 'PUT', auth, { username: 'slower', password_hash: hash.replace('$12$', '$13$') });
    assert.equal(over.status, 400);
    assert.match(over.body.message, /bcrypt cost 13 is outside 4 to 12/);

    // Handshakes whose sockets close while their check waits in the queue: their work is dropped, not done.
    const before = daemon.logs.length;
    const doomed = Array.from(
      { length: 4 },
      (_, i) =>
        new WebSocket(agentd, {
          headers: { 'Sensu-AgentName': `gone-${i}`, 'Sensu-Namespace': 'default', authorization: basic('slow', `gone-${i}`) },
          localAddress: '127.0.4.1',
        }),
    );
    for (const ws of doomed) ws.on('error', () => {});
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const ws of doomed) ws.terminate();
    await daemon.waitFor((l) => l.msg === 'agent refused: the connection closed before its password check', 15_000, before);
  },
);

test('logins: guesses that fill the password queue do not keep out a client that has not guessed', { timeout: 180_000 }, async (t) => {
  const { v2 } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const hash = await bcrypt.hash('slow-pass-1', 12);
  for (let a = 1; a <= 20; a++)
    assert.equal((await call(`${v2}/api/core/v2/users/slow-${a}`, 'PUT', auth, { username: `slow-${a}`, password_hash: hash, groups: [] })).status, 201);
  // Twenty addresses that have guessed once, then four checks at once each against a cost-12 user: more than the queue holds.
  const once = await Promise.all(Array.from({ length: 20 }, (_, a) => loginFrom(v2, `127.0.8.${1 + a}`, basic(`nobody-${a}`, 'x'))));
  assert.ok(once.every((r) => r.status === 401));
  let full!: () => void;
  const filled = new Promise<void>((resolve) => (full = resolve));
  const flood = Array.from({ length: 80 }, (_, i) =>
    loginFrom(v2, `127.0.8.${1 + (i % 20)}`, basic(`slow-${1 + (i % 20)}`, `wrong-${i}`)).then(
      (r) => (r.status === 503 && full(), r.status),
      () => 0,
    ),
  );
  await filled;
  const owner = await loginFrom(v2, '127.0.8.99', adminBasic.authorization);
  assert.equal(owner.status, 200, 'the password queue had room for a client that has not guessed');
  // The flood's own answers are not awaited: the daemon stops with its queue still full.
  void flood;
});

test('mTLS: a client certificate must name the agent, whatever password comes with it', { timeout: 60_000 }, async (t) => {
  const ca = makeTestCa();
  t.after(() => ca.remove());
  const server = ca.issue();
  const web = ca.issue(['web-1'], { client: true });
  const db = ca.issue(['db-1'], { client: true });
  const tls = { cert_file: server.certFile, key_file: server.keyFile, ca_file: ca.caFile };
  const { agentd, daemon } = await agentInstanceFor(t, { 'conf.d/config.json': { ...HOST['conf.d/config.json'], checkbridge: { agentd: { tls } } } });
  const password = basic('agent', AGENT_PASSWORD);
  const asWeb = { ca: ca.caPem, cert: web.cert, key: web.key };
  const withPassword = await handshakeFrom(agentd, '127.0.0.1', 'db-1', password, asWeb);
  assert.equal(withPassword.status, 401, "the password does not let web-1's certificate be db-1");
  assert.match(withPassword.body, /common name "web-1" is not the agent "db-1"/);
  assert.equal((await handshakeFrom(agentd, '127.0.0.1', 'db-1', undefined, asWeb)).status, 401);
  assert.ok(!daemon.logs.some((l) => l.msg === 'agent connected' && l.agent === 'db-1'), "db-1 never connected with web-1's certificate");
  // Its own certificate with the password: mutual TLS, secrets sent.
  assert.equal((await handshakeFrom(agentd, '127.0.0.1', 'db-1', password, { ca: ca.caPem, cert: db.cert, key: db.key })).status, 101);
  const own = await daemon.waitFor((l) => l.msg === 'agent connected' && l.agent === 'db-1');
  assert.equal(own.mtls, true);
  assert.equal(own.secrets, 'sent');
});
