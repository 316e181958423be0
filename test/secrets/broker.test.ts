// Legacy clients over a broker: the in-process client resolves its checks' secrets; a remote one cannot prove mutual
// TLS through the broker, runs the check without them, and the server says so once per check and client.
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redisFor } from '../servers/redis.js';
import { fleetClient } from '../helpers/fleet.js';
import { getJson, eventually, startInstance } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { adminToken } from '../api/v2/v2-helpers.js';
import { putSecret } from './vault-setup.js';

const VALUE = 'legacy-token-3b90e1f4';
const digest = (text: string) => createHash('sha256').update(text).digest('hex');
// The check prints a digest of what it saw: the value itself is never printed.
const CHECK = {
  command: 'printf %s "${TOKEN:-unset}" | sha256sum | cut -c1-64',
  subscribers: ['linux'],
  interval: 1,
  handlers: [],
  secrets: [{ name: 'TOKEN', secret: 'legacy-token' }],
};
const WITHHELD = 'secrets withheld: the client runs the check without them';

test(
  'over Redis the in-process client runs a check with its secret, a remote client without it, said once per check and client',
  { timeout: 120_000 },
  async (t) => {
    const redis = await redisFor(t);
    if (!redis) return;
    const root = makeTree({
      'conf.d/config.json': {
        client: { name: 'cb-host', address: '127.0.0.1', subscriptions: ['linux'] },
        redis: { host: '127.0.0.1', port: redis.port },
        checkbridge: { keepalive_interval: 1 },
      },
      'conf.d/checks.json': { checks: { 'legacy-token': CHECK } },
    });
    const { daemon, api, v2 } = await startInstance(root, ['--transport', 'redis'], { CB_TEST_LEGACY_TOKEN: VALUE });
    t.after(async () => {
      await daemon.stop('SIGKILL');
      removeTree(root);
    });
    await putSecret(v2, `Bearer ${await adminToken(v2)}`, 'legacy-token', 'env', 'CB_TEST_LEGACY_TOKEN');
    await fleetClient(t, 'redis', {
      'conf.d/c.json': {
        client: { name: 'remote-1', address: '127.0.0.1', subscriptions: ['linux'] },
        redis: { host: '127.0.0.1', port: redis.port },
        checkbridge: { keepalive_interval: 1 },
      },
    });

    const outputs = async () => {
      const results = (await getJson(`${api}/results`)).body as { client: string; check: { name: string; output: string } }[];
      return new Map(results.filter((r) => r.check.name === 'legacy-token').map((r) => [r.client, r.check.output.trim()]));
    };
    const seen = await eventually(outputs, (m) => m.get('cb-host') === digest(VALUE) && m.get('remote-1') === digest('unset'), 40_000);
    assert.equal(seen.get('cb-host'), digest(VALUE), 'the in-process client had the value in $TOKEN');
    assert.equal(seen.get('remote-1'), digest('unset'), 'the remote client ran the check with $TOKEN unset');
    // Several intervals on: the remote client's runs are said once, the in-process client's never.
    const executed = new Set<number>();
    await eventually(
      async () => {
        const reply = await getJson(`${api}/results/remote-1/legacy-token`);
        if (reply.status === 200) executed.add(reply.body.check.executed);
        return executed.size;
      },
      (n) => n >= 3,
      30_000,
    );
    const withheld = daemon.logs.filter((l) => l.msg === WITHHELD);
    assert.equal(withheld.length, 1, `said once across ${executed.size} runs: ${JSON.stringify(withheld)}`);
    assert.equal(withheld[0].level, 40, 'a warning');
    assert.equal(withheld[0].client, 'remote-1');
    assert.equal(withheld[0].check, 'legacy-token');
    assert.match(String(withheld[0].reason), /a legacy client over a broker \(RabbitMQ, Redis\) cannot prove mutual TLS/);
    assert.ok(!JSON.stringify(daemon.logs).includes(VALUE), 'the value is in no log line');
  },
);
