// The same request sequences sent to the real Sensu Go backend and to checkbridge; every difference is either gone or a
// row of docs/sensu-go-differences.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { instanceFor, ADMIN_PASSWORD } from '../helpers/instance.js';
import { ROOT } from '../helpers/paths.js';
import { eventually } from '../helpers/wait.js';
import { backendSkipReason, startBackend, BACKEND_ADMIN_PASSWORD } from '../helpers/sensu-backend.js';
import { SEQUENCES, type Sequence, type Step } from './sensu-go-diff-sequences.js';

interface Server {
  readonly name: string;
  readonly base: string;
  readonly admin: string;
  continueToken: string | null;
  /** The tokens the sequence's last `GET /auth` answered, for `as: 'session'` and `{refresh}`. */
  session: { access: string; refresh: string } | null;
}
interface Answer {
  readonly status: number;
  readonly type?: string;
  readonly body?: unknown;
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

async function login(base: string, user: string, password: string): Promise<string> {
  const reply = await fetch(`${base}/auth`, { headers: { authorization: basic(user, password) } });
  if (!reply.ok) return 'Bearer not-logged-in';
  return `Bearer ${((await reply.json()) as { access_token: string }).access_token}`;
}

/** Puts the sequence's namespace into a value. */
function fill(value: unknown, ns: string): unknown {
  if (typeof value === 'string') return value.replaceAll('{ns}', ns);
  if (Array.isArray(value)) return value.map((v) => fill(v, ns));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, ns)]));
  return value;
}

const TIME_KEYS = new Set(['timestamp', 'issued', 'executed', 'last_seen', 'last_ok', 'expire_at', 'begin', 'expires_at', 'created_at', 'updated_at']);
const DROP_KEYS = new Set(['created_by', 'resource_version']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What may differ between two correct answers: times, ids, tokens, who created it, order of an unordered list, error wording. */
function normalise(value: unknown, key = ''): unknown {
  if (typeof value === 'number' && TIME_KEYS.has(key)) return value === 0 ? 0 : '<time>';
  if (typeof value === 'string' && (UUID.test(value) || /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/.test(value) || key === 'refresh_token')) return '<id>';
  if (Array.isArray(value)) return value.map((v) => normalise(v, key));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !DROP_KEYS.has(k))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, normalise(v, k)]),
    );
  return value;
}

async function send(server: Server, step: Step, ns: string): Promise<Answer> {
  const headers: Record<string, string> = {};
  const as = step.as ?? 'admin';
  if (as === 'admin') headers.authorization = server.admin;
  else if (as === 'session') headers.authorization = `Bearer ${server.session?.access ?? ''}`;
  else if (as !== 'none') headers.authorization = await login(server.base, as.slice(0, as.indexOf(':')), as.slice(as.indexOf(':') + 1));
  const refresh = (text: string) => text.replace('{refresh}', server.session?.refresh ?? '');
  const body = step.body === undefined ? undefined : typeof step.body === 'string' ? step.body : refresh(JSON.stringify(fill(step.body, ns)));
  if (body !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, step.headers);
  const path = String(fill(step.path, ns)).replace('{continue}', encodeURIComponent(server.continueToken ?? ''));
  const reply = await fetch(`${server.base}${path}`, { method: step.method, headers, ...(body !== undefined ? { body } : {}) }).catch((error: Error) =>
    String((error.cause as Error | undefined)?.message ?? error.message),
  );
  // A server that drops the connection (a panic in its handler) answers with no status at all.
  if (typeof reply === 'string') return { status: 0, body: reply };
  server.continueToken = reply.headers.get('sensu-continue');
  const text = await reply.text();
  if (path === '/auth' && reply.status === 200) {
    const tokens = JSON.parse(text) as { access_token: string; refresh_token: string };
    server.session = { access: tokens.access_token, refresh: tokens.refresh_token };
  }
  if (step.settle && reply.status < 300) await settled(server, fill(step.settle.path, ns) as string, step.settle.output);
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : '';
  } catch {
    /* text as it is */
  }
  // Sensu Go's authorisation layer spells its error keys Code and Message (Go clients decode either case alike).
  if (reply.status >= 400 && parsed && typeof parsed === 'object' && ('message' in parsed || 'Message' in parsed)) {
    const error = parsed as { code?: unknown; Code?: unknown };
    parsed = { code: error.code ?? error.Code, message: '<message>' };
  }
  if (Array.isArray(parsed) && !step.ordered) parsed = [...parsed].sort((a, b) => JSON.stringify(normalise(a)).localeCompare(JSON.stringify(normalise(b))));
  const answer: Answer = { status: reply.status, ...(step.type ? { type: (reply.headers.get('content-type') ?? '').split(';')[0] } : {}) };
  return step.statusOnly ? answer : { ...answer, body: normalise(parsed) };
}

/** Waits until the event at `path` carries `output`: Sensu Go answers an event write before its pipeline stores it. */
async function settled(server: Server, path: string, output: string): Promise<void> {
  const seen = await eventually(
    () =>
      fetch(`${server.base}${path}`, { headers: { authorization: server.admin } }).then((r) => (r.ok ? r.json() : null)) as Promise<{
        check?: { output?: string };
      } | null>,
    (e) => e?.check?.output === output,
    10_000,
  );
  if (seen?.check?.output !== output) throw new Error(`${server.name}: the event written to ${path} was not stored within 10 s`);
}

/** Runs one sequence on one server in a namespace of its own; the answers of its steps. */
async function run(server: Server, sequence: Sequence): Promise<Answer[]> {
  const ns = `d-${sequence.id.replace(/[^\w-]/g, '-')}`;
  const made = await fetch(`${server.base}/api/core/v2/namespaces/${ns}`, {
    method: 'PUT',
    headers: { authorization: server.admin, 'content-type': 'application/json' },
    body: JSON.stringify({ name: ns }),
  });
  if (made.status >= 300) throw new Error(`${server.name}: PUT namespace ${ns}: ${made.status} ${await made.text()}`);
  server.continueToken = null;
  server.session = null;
  const answers: Answer[] = [];
  for (const step of sequence.steps) answers.push(await send(server, step, ns));
  return answers;
}

/** The sequence ids of the deliberate differences: the first column of the table in docs/sensu-go-differences.md. */
function listedDifferences(markdown: string): RegExp[] {
  const ids: RegExp[] = [];
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 6 || !cells[1]!.startsWith('`')) continue;
    for (const id of cells[1]!.match(/`[^`]+`/g) ?? []) ids.push(new RegExp(`^${id.slice(1, -1).replace(/\./g, '\\.').replace(/\*/g, '.*')}$`));
  }
  return ids;
}

test('Sensu Go and checkbridge answer the same request sequences alike, or the difference is listed', { skip: backendSkipReason() }, async (t) => {
  const [backend, ours] = await Promise.all([startBackend(t), instanceFor(t, { 'conf.d/empty.json': {} })]);
  const servers: [Server, Server] = [
    { name: 'sensu-go', base: backend.api, admin: await login(backend.api, 'admin', BACKEND_ADMIN_PASSWORD), continueToken: null, session: null },
    { name: 'checkbridge', base: ours.v2, admin: await login(ours.v2, 'admin', ADMIN_PASSWORD), continueToken: null, session: null },
  ];
  const listed = listedDifferences(readFileSync(join(ROOT, 'docs', 'sensu-go-differences.md'), 'utf8'));
  const differing: { id: string; step: number; request: string; theirs: Answer; ours: Answer }[] = [];
  const ids = new Set<string>();
  for (const sequence of SEQUENCES) {
    assert.ok(!ids.has(sequence.id), `sequence id ${sequence.id} is used twice`);
    ids.add(sequence.id);
    const [theirs, mine] = await Promise.all(servers.map((s) => run(s, sequence)));
    const step = theirs!.findIndex((answer, i) => JSON.stringify(answer) !== JSON.stringify(mine![i]));
    if (step >= 0) {
      const { method, path } = sequence.steps[step]!;
      differing.push({ id: sequence.id, step, request: `${method} ${path}`, theirs: theirs![step]!, ours: mine![step]! });
    }
  }
  const unlisted = differing.filter((d) => !listed.some((id) => id.test(d.id)));
  const stale = SEQUENCES.filter((s) => listed.some((id) => id.test(s.id)) && !differing.some((d) => d.id === s.id)).map((s) => s.id);
  t.diagnostic(`${SEQUENCES.length - differing.length} of ${SEQUENCES.length} sequences agree`);
  if (stale.length) t.diagnostic(`listed as different but now agreeing (drop their rows): ${stale.join(', ')}`);
  if (process.env.SENSU_GO_DIFF_REPORT) writeFileSync(process.env.SENSU_GO_DIFF_REPORT, JSON.stringify(differing, null, 1));
  const show = (d: (typeof differing)[number]) =>
    `${d.id} step ${d.step} (${d.request}): sensu-go ${JSON.stringify(d.theirs).slice(0, 600)}\n  checkbridge ${JSON.stringify(d.ours).slice(0, 600)}`;
  assert.deepEqual(unlisted.map(show), [], 'differences not listed in docs/sensu-go-differences.md');
  await sameMetricFamilies(t, servers);
});

/** /metrics: Sensu Go's process families (the Go runtime's aside) and its event counter's series are ours too. */
async function sameMetricFamilies(t: { diagnostic(message: string): void }, servers: [Server, Server]): Promise<void> {
  const [theirs, mine] = (await Promise.all(servers.map((s) => fetch(`${s.base}/metrics`).then((r) => r.text())))) as [string, string];
  const families = (text: string) => new Set([...text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]!));
  // Node has no counterpart of the Go runtime's per-process address space limit.
  const missing = [...families(theirs)].filter((f) => f.startsWith('process_') && f !== 'process_virtual_memory_max_bytes' && !families(mine).has(f));
  assert.deepEqual(missing, [], 'process families Sensu Go exposes and checkbridge does not');
  const series = (text: string) => new Map([...text.matchAll(/^sensu_go_events_processed\{([^}]*)\} (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
  const [their, our] = [series(theirs), series(mine)];
  assert.deepEqual(
    [...their.keys()].filter((labels) => !our.has(labels)),
    [],
    'sensu_go_events_processed series of Sensu Go missing here',
  );
  t.diagnostic(`sensu_go_events_processed: sensu-go ${JSON.stringify(Object.fromEntries(their))}, checkbridge ${JSON.stringify(Object.fromEntries(our))}`);
}
