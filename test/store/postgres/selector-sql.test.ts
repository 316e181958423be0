// fieldSelector / labelSelector as SQL over the jsonb selectors column, on a real PostgreSQL: every selector selects
// exactly the events matchesSelector selects in memory.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { selectorColumn, selectorSql } from '../../../src/store/postgres/selector-sql.js';
import { redactOutput } from '../../../src/config/index.js';
import { EVENT_FIELDS, matchesSelector, parseSelector } from '../../../src/v2/index.js';
import { postgresMissing, startPostgres, type PostgresServer } from '../../servers/postgres.js';
import type { Json } from '../../../src/json.js';

const missing = postgresMissing();
if (missing && process.env.CI === 'true') throw new Error(`PostgreSQL is required under CI: ${missing}`);
let server: PostgresServer | null = null;
let client: pg.Client | null = null;

const event = (entity: string, check: string, status: number, subscriptions: string[], labels: Record<string, string>, extra: Json = {}) => ({
  metadata: { namespace: 'default' },
  entity: { metadata: { name: entity, namespace: 'default', labels }, subscriptions, entity_class: 'agent' },
  check: { metadata: { name: check }, status, subscriptions, handlers: ['mail'], ...extra },
  timestamp: 1,
});

const EVENTS = [
  event('web-1', 'disk', 2, ['linux', 'web'], { region: 'eu', tier: 'front' }),
  event('web-2', 'disk', 0, ['linux'], { region: 'us' }),
  event('db-1', 'load', 1, ['linux', 'db'], { region: 'eu', password: 'hunter2' }),
  event('win-1', 'cpu', 0, [], {}, { is_silenced: true }),
  event('odd,name', 'x', 3, ['a b', 'c'], { 'we ird': 'v,1' }),
];

before(async () => {
  if (missing) return;
  server = await startPostgres();
  client = new pg.Client({ connectionString: server.url() });
  await client.connect();
  await client.query('CREATE TABLE events (id INT PRIMARY KEY, selectors JSONB NOT NULL)');
  for (const [id, e] of EVENTS.entries()) await client.query('INSERT INTO events VALUES ($1, $2)', [id, JSON.stringify(selectorColumn(e))]);
});

after(async () => {
  await client?.end();
  server?.stop();
});

async function selected(selector: string, labels: boolean): Promise<number[]> {
  const params: unknown[] = [];
  const where = selectorSql(parseSelector(selector), labels, params);
  const result = await client!.query(`SELECT id FROM events WHERE ${where} ORDER BY id`, params);
  return result.rows.map((row: { id: number }) => row.id);
}

function inMemory(selector: string, labels: boolean): number[] {
  const ops = parseSelector(selector);
  return EVENTS.flatMap((e, id) => {
    // As the API shows the event: redacted.
    const seen = redactOutput(e) as Json;
    const fields = labels ? EVENT_FIELDS.labels(seen) : EVENT_FIELDS.fields(seen);
    return matchesSelector(ops, fields) ? [id] : [];
  });
}

test('the selectors column holds the event fields and labels as the API shows them (redacted)', (t) => {
  if (!client) return void t.skip(missing!);
  const column = selectorColumn(EVENTS[2]!) as Json;
  assert.equal(column['event.entity.name'], 'db-1');
  assert.equal(column['event.check.status'], '1');
  assert.deepEqual(column.labels, { region: 'eu', password: 'REDACTED' });
});

test('field selectors select in SQL what they select in memory', async (t) => {
  if (!client) return void t.skip(missing!);
  const selectors = [
    'event.check.status == 2',
    'event.check.status != 0',
    'event.entity.name in [web-1, db-1, nobody]',
    'event.entity.name notin [web-1]',
    'event.check.name matches is',
    'linux in event.check.subscriptions',
    'linux notin event.entity.subscriptions',
    '"a b" in event.check.subscriptions',
    'event.check.is_silenced == true',
    'event.labels.region == eu && event.check.status != 0',
    'event.labels.tier != front',
    'event.no.such.field == x',
    'event.no.such.field != x',
    'event.name == "odd,name/x"',
  ];
  for (const selector of selectors) assert.deepEqual(await selected(selector, false), inMemory(selector, false), selector);
});

test('label selectors select in SQL what they select in memory, redacted labels included', async (t) => {
  if (!client) return void t.skip(missing!);
  const selectors = [
    'region == eu',
    'region != eu',
    'region in [us, eu]',
    'region notin [us]',
    'tier matches ro',
    'password == hunter2',
    'password == REDACTED',
    '"we ird" == "v,1"',
    '1 in "we ird"',
    'missing == x',
  ];
  for (const selector of selectors) assert.deepEqual(await selected(selector, true), inMemory(selector, true), selector);
  assert.deepEqual(await selected('password == hunter2', true), [], 'a redacted label is not matched by its value');
});

test('each condition pushes its own parameters, numbered after those already there', () => {
  const params: unknown[] = ['earlier'];
  const sql = selectorSql(parseSelector('event.check.status == 2 && region matches e'), false, params);
  assert.match(sql, / AND /);
  assert.match(sql, /\$2/);
  assert.equal(params[0], 'earlier');
  assert.ok(params.length > 2);
  assert.equal(selectorSql([], false, []), '', 'no selector, no condition');
});
