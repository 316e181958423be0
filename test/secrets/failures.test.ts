import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startInstance, getJson, postJson, eventually } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { adminToken } from '../api/v2/v2-helpers.js';
import { putProvider, putSecret, vaultFor } from './vault-setup.js';

const VALUE = 'failing-value-0e7d1f';

// One check per provider under test; each echoes its secret so a leak would show in the stored output.
const check = (name: string, secrets: { name: string; secret: string }[]) => ({
  command: `echo "${name} ran with ${secrets.map((s) => `$${s.name}`).join(' ')}"`,
  subscribers: ['test'],
  interval: 3600,
  publish: false,
  handlers: [],
  secrets,
});

test('secret failures: unknown secret, outage with max_retries and its event, timeout as a hard stop, rate limiter', async (t) => {
  const vault = await vaultFor(t, { mounts: { secret: 'v2' } });
  if (!vault) return;
  for (const path of ['flaky', 'slow', 'limited', 'starved']) vault.put('secret', path, { password: VALUE });
  const root = makeTree({
    'conf.d/client.json': { client: { name: 'failing-host', address: '127.0.0.1', subscriptions: ['test'] } },
    'conf.d/checks.json': {
      checks: {
        unknown: check('unknown', [{ name: 'X', secret: 'nope' }]),
        flaky: check('flaky', [{ name: 'F', secret: 'flaky-db' }]),
        slow: check('slow', [{ name: 'S', secret: 'slow-db' }]),
        limited: check(
          'limited',
          [1, 2, 3, 4, 5].map((n) => ({ name: `L${n}`, secret: 'limited-db' })),
        ),
        starved: check('starved', [
          { name: 'A', secret: 'starved-db' },
          { name: 'B', secret: 'starved-db' },
        ]),
      },
    },
  });
  const instance = await startInstance(root);
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  const { api, v2, daemon } = instance;
  const auth = `Bearer ${await adminToken(v2)}`;
  const provider = async (name: string, client: Record<string, unknown>) => {
    await putProvider(v2, auth, vault, name, client);
    await putSecret(v2, auth, `${name}-db`, name, `secret/${name}#password`);
  };
  await provider('flaky', { max_retries: 3 });
  await provider('slow', { timeout: '1s' });
  await provider('limited', { rate_limiter: { limit: 4, burst: 1 } });
  await provider('starved', { timeout: '1s', rate_limiter: { limit: 0.1, burst: 1 } });
  const requested = new Map<string, number>();
  const run = async (name: string) => {
    // Requests and results carry whole seconds: a second request of a check within the second the daemon stamped the
    // last one is dropped as a duplicate, so wait for the next second by the daemon's stamp (under load it can fall in
    // the second after the one we sent it in); the previous result is deleted so the next one read is this run's.
    const last = requested.get(name);
    if (last !== undefined) await sleep(Math.max(0, (last + 1) * 1000 - Date.now() + 50));
    await getJson(`${api}/results/failing-host/${name}`, { method: 'DELETE' });
    const issued = Date.now();
    assert.equal((await postJson(`${api}/request`, { check: name })).status, 202);
    const result = await eventually(
      () => getJson(`${api}/results/failing-host/${name}`),
      (r) => r.status === 200,
      20_000,
    );
    assert.equal(result.status, 200, `${name} ran`);
    requested.set(name, Number(result.body.check.issued));
    return { check: result.body.check, ms: Date.now() - issued };
  };
  const hits = (path: string) => vault.requests.filter((r) => r.path === `/v1/secret/data/${path}`);

  const unknown = await run('unknown');
  assert.equal(unknown.check.status, 3);
  assert.match(unknown.check.output, /secret "nope" \(X\).*no Secret named "nope"/);

  // Down: every attempt answered 503; max_retries 3 means four requests, then status 3 and an event on our own entity.
  vault.mode = 'fail';
  const down = await run('flaky');
  assert.equal(down.check.status, 3);
  assert.match(down.check.output, /secret "flaky-db" \(F\) from provider "flaky": the vault answered 503/);
  assert.equal(hits('flaky').length, 4, 'one request and max_retries (3) retries');
  const outage = await eventually(
    () => getJson(`${api}/events/failing-host/secrets-provider-flaky`),
    (r) => r.status === 200,
  );
  assert.equal(outage.status, 200, "a provider outage raises an event on the server's own entity");
  assert.equal(outage.body.check.status, 2);
  assert.match(outage.body.check.output, /secrets provider flaky is unavailable: the vault answered 503/);
  // Connections dropped before any answer are retried the same way.
  vault.mode = 'drop';
  const dropped = await run('flaky');
  assert.equal(dropped.check.status, 3);
  assert.match(dropped.check.output, /secret "flaky-db" \(F\) from provider "flaky": the vault is unreachable/);
  assert.equal(hits('flaky').length, 8);
  vault.mode = 'ok';
  const back = await run('flaky');
  assert.equal(back.check.status, 0, back.check.output);
  assert.equal(back.check.output, 'flaky ran with REDACTED\n');
  const resolved = await eventually(
    () => getJson(`${api}/events/failing-host/secrets-provider-flaky`),
    (r) => r.status === 404,
  );
  assert.equal(resolved.status, 404, 'the outage event is resolved when the provider answers again');
  await daemon.waitFor((l) => l.msg === 'secrets provider is available again' && l.provider === 'flaky');

  // Timeout: the vault takes 5 s an answer; `timeout: 1s` stops the whole read (retries included) after a second.
  vault.mode = 'slow';
  vault.slowMs = 5000;
  const slow = await run('slow');
  assert.equal(slow.check.status, 3);
  assert.match(slow.check.output, /secret "slow-db" \(S\) from provider "slow": the vault did not answer within the timeout \(1s\)/);
  assert.ok(slow.ms < 4500, `the timeout is a hard stop (took ${slow.ms} ms; one slow answer alone takes 5000)`);
  vault.mode = 'ok';

  // Rate limiter: 4 requests a second, burst 1: five reads are spread over at least a second.
  const limited = await run('limited');
  assert.equal(limited.check.status, 0, limited.check.output);
  const times = hits('limited').map((r) => r.at);
  assert.equal(times.length, 5);
  assert.ok(times[4]! - times[0]! >= 800, `five requests at 4/s span ${times[4]! - times[0]!} ms`);
  // A limit that would make a read wait past the timeout fails it at once, without a request.
  const starved = await run('starved');
  assert.equal(starved.check.status, 3);
  assert.match(starved.check.output, /secret "starved-db" \(B\) from provider "starved": rate limit exceeded/);
  assert.equal(hits('starved').length, 1, 'the second read never reached the vault');

  const all = JSON.stringify(daemon.logs) + JSON.stringify((await getJson(`${api}/events`)).body);
  assert.ok(!all.includes(VALUE), 'no value in the logs or events');
});
