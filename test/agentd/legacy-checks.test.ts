// conf.d checks reach Sensu Go agents as Sensu Go would run them (compile's translation, computed once per
// configuration load), beside the legacy clients of the same subscription; the real 6.12 agent runs them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, getJson, postJson } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { agentSkipReason, startAgent, agentInstanceFor, agentFlags } from '../helpers/sensu-agent.js';

const skip = agentSkipReason();
import type { Json } from '../../src/json.js';

// Every handled event in a file of its own (handlers run concurrently), in the state directory the daemon gives them.
const RECORD = { type: 'pipe', command: 'cat > "$CHECKBRIDGE_STATE_DIR/handled-$$.json"' };

// A file still being written is read at the next poll.
const parsed = (path: string): Json[] => {
  try {
    return [JSON.parse(readFileSync(path, 'utf8'))];
  } catch {
    return [];
  }
};
const handled = (root: string): Json[] =>
  readdirSync(join(root, 'state'))
    .filter((f) => f.startsWith('handled-'))
    .flatMap((f) => parsed(join(root, 'state', f)));

test(
  'a conf.d check with tokens and a hook runs on the agent with its labels and on the legacy client with its attributes, under one subscription and one handling',
  { skip, timeout: 120_000 },
  async (t) => {
    const { v2, api, agentd, root, daemon } = await agentInstanceFor(t, {
      'conf.d/config.json': {
        client: { name: 'cb-host', address: '127.0.0.1', subscriptions: ['linux'], disk: { warning: 70 } },
        checkbridge: { monitor_interval: 1 },
        handlers: { record: RECORD },
        checks: {
          disk: {
            command: 'echo warn=:::disk.warning|80:::; exit 2',
            subscribers: ['linux'],
            interval: 1,
            timeout: 2.5,
            handlers: ['record'],
            hooks: { critical: { command: 'echo hook-for-:::disk.warning|80:::' } },
          },
          profile: { extension: 'system_profile', subscribers: ['linux'], interval: 1 },
        },
      },
    });
    const agent = await startAgent(t, agentd, 'runner-1', [...agentFlags(), '--subscriptions', 'linux', '--labels', 'disk_warning=90']);
    await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');

    // The agent's result is the legacy event of its client, handled by the conf.d handler as the legacy client's is.
    const onAgent = await eventually(
      () => getJson(`${api}/events/runner-1/disk`),
      (r) => r.status === 200,
      30_000,
    );
    assert.equal(onAgent.status, 200, JSON.stringify(onAgent.body));
    assert.equal(onAgent.body.check.output.trim(), 'warn=90');
    assert.equal(onAgent.body.check.status, 2);
    assert.equal(onAgent.body.check.hooks.critical.output.trim(), 'hook-for-90');
    const onClient = await eventually(
      () => getJson(`${api}/events/cb-host/disk`),
      (r) => r.status === 200,
      30_000,
    );
    assert.equal(onClient.body.check.output.trim(), 'warn=70');
    assert.equal(onClient.body.check.hooks.critical.output.trim(), 'hook-for-70');

    // One entity registry: the agent's event is also its v2 event, on its own entity, with one history that grows.
    const auth = `Bearer ${await adminToken(v2)}`;
    const v2Event = await eventually(
      () => call(`${v2}/api/core/v2/namespaces/default/events/runner-1/disk`, 'GET', auth),
      (r) => (r.body?.check?.history?.length ?? 0) >= 3,
      30_000,
    );
    assert.ok(v2Event.body.check.history.length >= 3, JSON.stringify(v2Event.body));
    assert.equal(v2Event.body.entity.metadata.name, 'runner-1');
    assert.equal(v2Event.body.entity.entity_class, 'agent');
    assert.equal(v2Event.body.check.output.trim(), 'warn=90');

    // Labels set through the API reach the agent's entity, and its next run reads them.
    const entityUrl = `${v2}/api/core/v2/namespaces/default/entities/runner-1`;
    const entity = (await call(entityUrl, 'GET', auth)).body as Json;
    entity.metadata.labels = { ...entity.metadata.labels, disk_warning: '95' };
    const put = await call(entityUrl, 'PUT', auth, entity);
    assert.ok(put.status < 300, JSON.stringify(put.body));
    const relabelled = await eventually(
      () => getJson(`${api}/events/runner-1/disk`),
      (r) => r.body?.check?.output?.trim() === 'warn=95',
      30_000,
    );
    assert.equal(relabelled.body.check.output.trim(), 'warn=95');

    const records = await eventually(
      async () => handled(root),
      (r) => r.length >= 2,
      30_000,
    );
    const outputs = (client: string) => new Set(records.filter((e) => e.client.name === client).map((e) => e.check.output.trim()));
    assert.ok(outputs('runner-1').has('warn=90'), JSON.stringify(records));
    assert.ok(outputs('cb-host').has('warn=70'), JSON.stringify(records));
    // The same definition reaches the handlers from both kinds: the command as written, with its tokens.
    assert.deepEqual(new Set(records.map((e) => e.check.command)), new Set(['echo warn=:::disk.warning|80:::; exit 2']));

    // What the agent cannot honour exactly is logged once for this configuration, however many requests went out.
    const said = daemon.logs.filter((l) => l.msg === 'legacy check attributes a Sensu Go agent cannot honour');
    assert.equal(said.length, 1, JSON.stringify(said));
    assert.equal(said[0]!.check, 'disk');
    assert.match(String((said[0]!.attributes as Json).timeout), /emitted as 3/);
    // An extension check stays with the legacy clients, said once.
    const kept = daemon.logs.filter((l) => l.msg === 'legacy check not sent to Sensu Go agents');
    assert.deepEqual(
      kept.map((l) => l.check),
      ['profile'],
    );
    assert.equal((await getJson(`${api}/events/runner-1/profile`)).status, 404);
    // A new configuration is translated afresh: said once more.
    writeFileSync(join(root, 'conf.d', 'more.json'), JSON.stringify({ checks: { later: { command: 'true', subscribers: ['none'], interval: 60 } } }));
    const changed = await daemon.waitFor((l) => l.msg === 'settings changed' && Array.isArray(l.added) && (l.added as string[]).includes('later'), 30_000);
    const again = await daemon.waitFor((l) => l.msg === 'legacy check attributes a Sensu Go agent cannot honour', 10_000, daemon.logs.indexOf(changed));
    assert.equal(again.check, 'disk');
    assert.equal(daemon.logs.filter((l) => l.msg === 'legacy check attributes a Sensu Go agent cannot honour').length, 2);
  },
);

test(
  'a legacy round-robin check across two agents and one legacy client: each request runs on exactly one of them, all three in turn',
  { skip, timeout: 120_000 },
  async (t) => {
    const { agentd, root, daemon } = await agentInstanceFor(
      t,
      {
        'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: ['roundrobin:web'] }, checkbridge: { monitor_interval: 1 } },
      },
      ['--log-level', 'debug'],
    );
    const runs = join(root, 'runs.log');
    for (const name of ['runner-a', 'runner-b']) {
      const agent = await startAgent(t, agentd, name, [...agentFlags(), '--subscriptions', 'web']);
      await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');
    }
    await daemon.waitFor((l) => l.msg === 'agent connected' && l.agent === 'runner-b');
    // Each execution appends the name of the one that ran it.
    const check = join(root, 'conf.d', 'rr.json');
    writeFileSync(
      check,
      JSON.stringify({ checks: { rr: { command: `echo :::name::: >> ${runs}`, subscribers: ['roundrobin:web'], interval: 1, handlers: [] } } }),
    );
    const sent = () =>
      daemon.logs.filter((l) => l.msg === 'publishing round-robin check request' && l.check === 'rr').map((l) => String((l.target as Json).name));
    await eventually(
      async () => sent(),
      (s) => s.length >= 6,
      60_000,
    );
    rmSync(check);
    await daemon.waitFor((l) => l.msg === 'settings changed' && Array.isArray(l.removed) && (l.removed as string[]).includes('rr'), 30_000);
    const published = sent();
    const ran = () => (existsSync(runs) ? readFileSync(runs, 'utf8').split('\n').filter(Boolean) : []);
    await eventually(
      async () => ran(),
      (r) => r.length >= published.length,
      30_000,
    );
    const count = (names: string[]) => Object.fromEntries(['cb-host', 'runner-a', 'runner-b'].map((n) => [n, names.filter((x) => x === n).length]));
    // Exactly the members the requests went to ran, once per request; nothing was sent to the whole subscription.
    assert.deepEqual(count(ran()), count(published), `ran ${ran().join(',')}; sent ${published.join(',')}`);
    assert.equal(ran().length, published.length);
    assert.equal(daemon.logs.filter((l) => l.msg === 'publishing check request' && l.check === 'rr').length, 0);
    for (const [name, n] of Object.entries(count(published))) assert.ok(n >= 2, `${name} took its turns: ${published.join(',')}`);
    // In turn: each window of three consecutive requests went to the three members.
    for (let i = 0; i + 3 <= published.length; i++) assert.equal(new Set(published.slice(i, i + 3)).size, 3, published.join(','));
  },
);

test(
  'a legacy proxy check runs on the agent for each matching proxy client, substituted from that client; POST /request reaches the agent too; a check of two of its subscriptions runs once per interval',
  { skip, timeout: 120_000 },
  async (t) => {
    const { api, agentd } = await agentInstanceFor(t, {
      'conf.d/config.json': {
        client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] },
        checkbridge: { monitor_interval: 1 },
        checks: {
          ping: {
            command: 'echo ping :::address:::',
            subscribers: ['linux'],
            interval: 1,
            handlers: [],
            proxy_requests: { client_attributes: { keepalives: false } },
          },
          by_hand: { command: 'echo asked-for', subscribers: ['linux'], publish: false, handlers: [] },
          both: { command: 'echo once; exit 1', subscribers: ['linux', 'web'], interval: 1, handlers: [] },
        },
      },
    });
    assert.equal((await postJson(`${api}/clients`, { name: 'router-1', address: '10.0.0.9', subscriptions: [], keepalives: false })).status, 201);
    const agent = await startAgent(t, agentd, 'runner-1', [...agentFlags(), '--subscriptions', 'linux,web']);
    await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');
    // The result is the proxy client's, run by the agent with the proxy client's own address.
    const proxied = await eventually(
      () => getJson(`${api}/results/router-1/ping`),
      (r) => r.status === 200,
      30_000,
    );
    assert.equal(proxied.status, 200, JSON.stringify(proxied.body));
    assert.equal(proxied.body.check.output.trim(), 'ping 10.0.0.9');
    // publish false: never scheduled; the legacy API's POST /request sends it to the agent at once.
    assert.equal((await getJson(`${api}/results/runner-1/by_hand`)).status, 404);
    assert.equal((await postJson(`${api}/request`, { check: 'by_hand', reason: 'test' })).status, 202);
    const ran = await eventually(
      () => getJson(`${api}/results/runner-1/by_hand`),
      (r) => r.status === 200,
      30_000,
    );
    assert.equal(ran.status, 200, JSON.stringify(ran.body));
    assert.equal(ran.body.check.output.trim(), 'asked-for');
    // Subscribed to two of a check's subscriptions, the agent is sent one request an issue (Sensu Go sends one per
    // subscription, and its agent drops the copy only once the first has started): none refused, none in progress.
    const both = await eventually(
      () => getJson(`${api}/events/runner-1/both`),
      (r) => (r.body?.check?.history?.length ?? 0) >= 4,
      30_000,
    );
    assert.ok(both.body.check.history.length >= 4, JSON.stringify(both.body));
    assert.deepEqual(
      agent.lines.filter((l) => /multiple matching subscriptions|still in progress|older than/.test(JSON.stringify(l))),
      [],
    );
  },
);
