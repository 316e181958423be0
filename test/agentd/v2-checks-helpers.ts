// What the v2-checks*.test.ts files share: an instance with the real agent's WebSocket, an admin token, and the
// events of an entity and check read through the v2 API.
import { eventually } from '../helpers/instance.js';
import { adminToken, call, type Reply } from '../api/v2/v2-helpers.js';
import { agentInstanceFor, type RunningAgent } from '../helpers/sensu-agent.js';

import type { Json } from '../../src/json.js';
export type { Json };

/** A conf.d whose monitors tick each second; the legacy client is only the host every instance needs. */
export const HOST = { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { monitor_interval: 1 } } };

/** An instance, its agent WebSocket, an admin's Authorization header and the URLs a test reads. */
export async function v2CheckInstance(
  t: Parameters<typeof agentInstanceFor>[0],
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
  files: Record<string, string | object> = HOST,
) {
  const instance = await agentInstanceFor(t, files, extra, env);
  const auth = `Bearer ${await adminToken(instance.v2)}`;
  const ns = `${instance.v2}/api/core/v2/namespaces/default`;
  const event = (entity: string, check: string) => call(`${ns}/events/${entity}/${check}`, 'GET', auth);
  const put = async (kind: string, body: Json) => {
    const reply = await call(`${ns}/${kind}/${body.metadata.name}`, 'PUT', auth, body);
    if (reply.status >= 300) throw new Error(`PUT ${kind}/${body.metadata.name}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply;
  };
  return { ...instance, auth, ns, event, put };
}

/** Polls the event of `entity`/`check` until `ok` holds, failing with the last reply otherwise. */
export async function eventWhere(
  read: (entity: string, check: string) => Promise<Reply>,
  entity: string,
  check: string,
  ok: (event: Json) => boolean,
  ms = 30_000,
): Promise<Json> {
  const reply = await eventually(
    () => read(entity, check),
    (r) => r.status === 200 && ok(r.body),
    ms,
  );
  if (reply.status !== 200 || !ok(reply.body)) throw new Error(`event ${entity}/${check} never matched: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body as Json;
}

/** The distinct `check.issued` of an entity's event, polled until `enough` says the series is long enough. */
export async function issuedSeries(
  read: (entity: string, check: string) => Promise<Reply>,
  entity: string,
  check: string,
  enough: (series: number[]) => boolean,
  from = 0,
  ms = 40_000,
): Promise<number[]> {
  const series: number[] = [];
  await eventually(
    async () => {
      const reply = await read(entity, check);
      const issued = reply.status === 200 ? Number(reply.body.check?.issued) : NaN;
      if (Number.isFinite(issued) && issued >= from && series.at(-1) !== issued) series.push(issued);
      return series;
    },
    enough,
    ms,
  );
  return series;
}

/** Differences between consecutive values. */
export const gaps = (series: number[]) => series.slice(1).map((v, i) => v - series[i]!);

/** What the agent refused of what it was sent: a request while the same check runs, an invalid check. */
// A check still running when its next request comes (a 1 s interval on a loaded machine) is the agent's timing, not a refusal.
export const refusals = (agent: RunningAgent) =>
  agent.lines.filter(
    (l) => (l.msg === 'error handling message' && !/check execution still in progress/.test(String(l.error))) || /given check is invalid/.test(String(l.msg)),
  );
