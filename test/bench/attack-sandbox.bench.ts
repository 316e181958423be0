// /health while a team holding the role for other teams of docs/security.md (no handlers, no mutators) runs busy expressions:
// a CheckConfig with interval 1 and 8 proxy entity_attributes of ~20 ms each over 30 entities, and an EventFilter
// of 4 such expressions on a pipeline that events are PUT through. At rest and under the attack, in the same run.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { startInstance, getJson } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

const WINDOW_MS = 15_000;
const busy = (tag: string) => `(function () { var t = Date.now(); while (Date.now() - t < 20) {} return true })() /* ${tag} */`;
const OTHER_TEAM = { rules: [{ verbs: ['*'], resources: ['checks', 'entities', 'events', 'filters', 'hooks', 'pipelines', 'silenced'] }] };

const q = (sorted: number[], at: number) => +sorted[Math.min(sorted.length - 1, Math.floor(at * sorted.length))]!.toFixed(1);

/** /health latencies, one request after another, for `ms`. */
async function healthFor(v2: string, ms: number): Promise<number[]> {
  const until = performance.now() + ms;
  const latencies: number[] = [];
  while (performance.now() < until) {
    const started = performance.now();
    const reply = await fetch(`${v2}/health`);
    await reply.arrayBuffer();
    latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

async function setUp(v2: string): Promise<{ team: string; ns: string }> {
  const admin = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/team-b`;
  await call(ns, 'PUT', admin, {});
  await call(`${v2}/api/core/v2/users`, 'POST', admin, { username: 'mallory', password: 'mallory-pass-1' });
  await call(`${ns}/roles/other-team`, 'PUT', admin, OTHER_TEAM);
  await call(`${ns}/rolebindings/mallory`, 'PUT', admin, { subjects: [{ type: 'User', name: 'mallory' }], role_ref: { type: 'Role', name: 'other-team' } });
  const basic = 'Basic ' + Buffer.from('mallory:mallory-pass-1').toString('base64');
  const team = `Bearer ${(await getJson(`${v2}/auth`, { headers: { authorization: basic } })).body.access_token}`;
  for (let i = 0; i < 30; i++)
    await call(`${ns}/entities/proxy-${i}`, 'PUT', team, { metadata: { name: `proxy-${i}` }, entity_class: 'proxy', subscriptions: [] });
  // A handler someone trusted wrote, which the team's pipelines may name.
  await call(`${ns}/handlers/noop`, 'PUT', admin, { type: 'pipe', command: 'true', timeout: 10 });
  await call(`${ns}/filters/slow`, 'PUT', team, {
    metadata: { name: 'slow' },
    action: 'allow',
    expressions: Array.from({ length: 4 }, (_, i) => busy(`filter ${i}`)),
  });
  return { team, ns };
}

/** The attack: the proxy check, and events through the slow filter (its pipeline runs a handler someone else wrote). */
async function attack(ns: string, team: string, stop: () => boolean): Promise<number> {
  const attributes = Array.from({ length: 8 }, (_, i) => busy(`attribute ${i}`));
  await call(`${ns}/checks/stall`, 'PUT', team, {
    metadata: { name: 'stall' },
    command: 'true',
    interval: 1,
    publish: true,
    subscriptions: ['nobody'],
    handlers: [],
    proxy_requests: { entity_attributes: attributes },
  });
  const workflow = {
    name: 'w',
    filters: [{ name: 'slow', type: 'EventFilter', api_version: 'core/v2' }],
    handler: { name: 'noop', type: 'Handler', api_version: 'core/v2' },
  };
  await call(`${ns}/pipelines/slow`, 'PUT', team, { workflows: [workflow] });
  let sent = 0;
  while (!stop()) {
    const body = {
      entity: { entity_class: 'proxy', metadata: { name: `proxy-${sent % 30}` } },
      check: { metadata: { name: `c-${sent}` }, interval: 60, status: 2, output: 'x' },
      pipelines: [{ api_version: 'core/v2', type: 'Pipeline', name: 'slow' }],
    };
    await call(`${ns}/events/proxy-${sent % 30}/c-${sent}`, 'PUT', team, body);
    sent++;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return sent;
}

/** /health p50/p99/max at rest and under the attack, one daemon, one run. */
export async function benchAttackSandbox(report: (figure: object) => void): Promise<void> {
  const root = makeTree({ 'conf.d/a.json': { client: { name: 'bench-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } } });
  const { daemon, v2 } = await startInstance(root);
  try {
    const { team, ns } = await setUp(v2);
    const rest = await healthFor(v2, WINDOW_MS);
    let done = false;
    const events = attack(ns, team, () => done);
    const loaded = await healthFor(v2, WINDOW_MS);
    done = true;
    const sent = await events;
    const figures = (sorted: number[]) => ({ requests: sorted.length, p50_ms: q(sorted, 0.5), p99_ms: q(sorted, 0.99), max_ms: q(sorted, 1) });
    const logged = (pattern: RegExp) => daemon.logs.filter((l) => pattern.test(String(l.msg)) || pattern.test(String(l.error))).length;
    report({
      bench: 'attack-sandbox',
      row: "/health latency, sequential requests, at rest and under a role-less team's busy expressions (ms)",
      window_s: WINDOW_MS / 1000,
      rest: figures(rest),
      attack: figures(loaded),
      attack_events_put: sent,
      quarantined_lines: logged(/used more than half its CPU budget/),
      allowance_refusals_logged: logged(/spent its sandbox time/),
      namespace_share_lines: logged(/share of sandbox time/),
      attack_detail: 'CheckConfig interval 1, 8 entity_attributes of ~20 ms over 30 proxy entities; EventFilter of 4 such expressions, an event each 50 ms',
      load: loadavg()[0]!.toFixed(2),
    });
  } finally {
    await daemon.stop('SIGKILL');
    removeTree(root);
  }
}
