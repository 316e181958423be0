// The migration rehearsal on live legacy events: a conf.d whose compiled form diverges in known ways reports exactly
// those divergences, and the same conf.d with nothing untranslatable reports full agreement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTree, removeTree, writeTree } from '../helpers/tree.js';
import { startInstance, getJson, adminBasic, eventually, type Instance } from '../helpers/instance.js';
import { tcpExchange } from '../helpers/net.js';
import { BIN } from '../helpers/paths.js';

const SINK = 'cat > /dev/null';
const check = (extra: Record<string, unknown>) => ({ command: 'true', interval: 60, subscribers: ['nobody'], ...extra });

/** The conf.d: `diverging` adds what compile cannot carry over as legacy ran it; without it everything translates. */
function confd(diverging: boolean): Record<string, unknown> {
  return {
    client: { name: 'rehearsed', address: '127.0.0.1', subscriptions: ['web'], secret_key: 's3cret', datacenter: 'dc1' },
    filters: {
      // Lookahead has no Sensu Go translation: the negated filter is left out of the pipeline.
      quiet_output: { negate: true, attributes: { check: { output: diverging ? 'eval: value =~ /foo(?=bar)/' : 'eval: value =~ /foobar/' } } },
      // A window with dates has no translation; one of times of day (all day, so now is inside) has.
      in_window: {
        negate: true,
        attributes: { check: { status: 2 } },
        when: { days: { all: [diverging ? { begin: '2020-01-01 00:00:00 UTC', end: '2099-12-31 23:59:59 UTC' } : { begin: '00:00:00', end: '23:59:59' }] } },
      },
    },
    mutators: { tag: { command: 'cat' } },
    handlers: {
      h_filter: { type: 'pipe', command: SINK, filters: ['quiet_output'] },
      h_when: { type: 'pipe', command: SINK, filters: ['in_window'] },
      h_mutator: { type: 'pipe', command: SINK, mutator: diverging ? 'missing' : 'tag' },
      h_occ: { type: 'pipe', command: SINK, filters: ['occurrences'] },
      h_plain: { type: 'pipe', command: SINK },
      h_crit: { type: 'pipe', command: SINK, severities: ['critical'] },
      h_set: { type: 'set', handlers: ['h_crit', 'h_plain'], severities: ['critical'] },
    },
    checks: {
      c_filter: check({ handlers: ['h_filter'] }),
      c_when: check({ handlers: ['h_when'] }),
      c_mutator: check({ handlers: ['h_mutator'] }),
      // Legacy's occurrences filter lets everything through when the settings are not whole numbers; the compiled one applies.
      c_occ: check({ handlers: ['h_occ'], occurrences: 2, refresh: diverging ? 90.5 : 120 }),
      c_subdue: check({ handlers: ['h_plain'], ...(diverging ? { subdue: { days: { all: [{ begin: '00:00:00', end: '23:59:59' }] } } } : {}) }),
      c_token: check({ handlers: ['h_plain'], command: `check-api --dc :::datacenter::: --key :::${diverging ? 'secret_key' : 'datacenter'}|none:::` }),
      c_set: check({ handlers: ['h_set'] }),
      c_plain: check({ handlers: ['h_plain'] }),
    },
  };
}

// Each check's results in order (sent one after another through the client socket).
const RESULTS: [string, number, string?][] = [
  ['c_filter', 2, 'foobar'],
  ['c_when', 2],
  ['c_mutator', 2],
  ['c_occ', 2],
  ['c_occ', 2],
  ['c_subdue', 2],
  ['c_token', 2],
  ['c_set', 1],
  ['c_set', 0],
  ['c_plain', 0],
];

async function rehearse(t: { after(fn: () => Promise<void>): void }, diverging: boolean): Promise<{ instance: Instance; root: string; report: any }> {
  const root = makeTree({ 'conf.d/config.json': confd(diverging) });
  const instance = await startInstance(root, [], { TZ: 'UTC' });
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  for (const [name, status, output] of RESULTS)
    assert.equal(await tcpExchange(instance.socket, JSON.stringify({ name, status, output: output ?? `status ${status}`, handlers: undefined })), 'ok');
  const authorization = `Bearer ${(await getJson(`${instance.v2}/auth`, { headers: adminBasic })).body.access_token}`;
  const report = await eventually(
    async () => (await getJson(`${instance.v2}/api/checkbridge/v1/rehearsal`, { headers: { authorization } })).body,
    (body) => body?.seen === RESULTS.length,
  );
  assert.equal(
    report?.seen,
    RESULTS.length,
    `every result rehearsed: ${JSON.stringify(report)}\n${instance.daemon.logs
      .filter((l) => Number(l.level) >= 40)
      .map((l) => JSON.stringify(l))
      .join('\n')}`,
  );
  return { instance, root, report };
}

const kindsByCheck = (report: any) =>
  Object.fromEntries(
    (report.checks as any[]).filter((c) => c.diverged > 0).map((c) => [c.check, [...new Set(c.first.flatMap((d: any) => d.kinds as string[]))].sort()]),
  );

test('a conf.d whose compiled form diverges: the rehearsal reports exactly those divergences, each with why', async (t) => {
  const { instance, report } = await rehearse(t, true);
  assert.deepEqual(kindsByCheck(report), {
    c_filter: ['filter'],
    c_when: ['when'],
    c_mutator: ['mutator'],
    c_occ: ['occurrences'],
    c_subdue: ['subdue'],
    c_token: ['token'],
  });
  assert.equal(report.diverged, 6, 'one event each; the second result of c_occ agrees (its second occurrence passes both)');
  const byCheck = Object.fromEntries((report.checks as any[]).map((c) => [c.check, c]));
  assert.deepEqual([byCheck.c_set.agreed, byCheck.c_set.diverged], [2, 0], "the set's own severities: ignored by legacy and absent from the pipelines alike");
  assert.deepEqual([byCheck.c_plain.agreed, byCheck.c_occ.agreed], [1, 1]);
  const first = (name: string) => byCheck[name].first[0];
  assert.deepEqual(first('c_filter').handlers, [{ handler: 'h_filter', legacy: 'filtered by quiet_output', v2: 'handled (event as JSON)' }]);
  assert.match(first('c_filter').why.join('\n'), /filters\/quiet_output\/attributes.*lookaround|filters\/quiet_output.*not emitted/);
  assert.match(first('c_when').why.join('\n'), /filters\/in_window\/when: when not translated/);
  assert.deepEqual(first('c_mutator').handlers, [
    { handler: 'h_mutator', legacy: 'fails: mutator missing is not defined (unknown mutator)', v2: 'handled (event as JSON)' },
  ]);
  assert.match(first('c_mutator').why.join('\n'), /handlers\/h_mutator\/mutator: mutator missing is not defined/);
  assert.deepEqual(first('c_occ').handlers, [{ handler: 'h_occ', legacy: 'handled', v2: 'filtered by occurrences' }]);
  assert.match(first('c_occ').why[0], /occurrences 2, refresh 90.5: not whole numbers, so legacy's occurrences filter let every event through/);
  assert.deepEqual(first('c_subdue').handlers, [{ handler: 'h_plain', legacy: 'handled', v2: 'not handled: the check is subdued now' }]);
  assert.match(first('c_subdue').why.join('\n'), /checks\/c_subdue\/subdue: subdue → subdues/);
  assert.deepEqual(first('c_token').tokens, [{ token: ':::secret_key|none:::', label: 'secret_key' }], 'the datacenter token renders alike');
  assert.equal(first('c_token').handlers.length, 0, 'the same handlers were called');
  assert.doesNotMatch(JSON.stringify(report), /s3cret/, 'no rendered value is kept: only the token and its label');

  // The CLI: Markdown, and exit 1 for CI.
  const env = { ...process.env, CHECKBRIDGE_URL: instance.v2, CHECKBRIDGE_USERNAME: 'admin', CHECKBRIDGE_PASSWORD: 'checkbridge-test-admin' };
  const markdown = spawnSync(process.execPath, [BIN, 'rehearse'], { env, encoding: 'utf8' });
  assert.equal(markdown.status, 1, markdown.stderr);
  assert.match(markdown.stdout, /10 events on 8 checks, 4 agreeing, 6 diverging/);
  assert.match(markdown.stdout, /## `c_mutator`: 1 of 1 diverged/);
  assert.match(markdown.stdout, /handler `h_mutator`: legacy fails: mutator missing is not defined \(unknown mutator\); Sensu Go handled/);
  const json = spawnSync(process.execPath, [BIN, 'rehearse', '--format', 'json'], { env, encoding: 'utf8' });
  assert.equal(json.status, 1);
  assert.equal(JSON.parse(json.stdout).diverged, 6);
});

test('the same conf.d with nothing untranslatable: full agreement, exit 0; compile --report carries the section', async (t) => {
  const { instance, root, report } = await rehearse(t, false);
  assert.deepEqual(kindsByCheck(report), {});
  assert.deepEqual([report.seen, report.agreed, report.diverged], [RESULTS.length, RESULTS.length, 0]);
  const env = { ...process.env, CHECKBRIDGE_URL: instance.v2, CHECKBRIDGE_USERNAME: 'admin', CHECKBRIDGE_PASSWORD: 'checkbridge-test-admin' };
  const cli = spawnSync(process.execPath, [BIN, 'rehearse'], { env, encoding: 'utf8' });
  assert.equal(cli.status, 0, cli.stderr);
  assert.match(cli.stdout, /Sensu Go would have done the same with every event/);
  await instance.daemon.stop('SIGTERM');
  const out = join(root, 'report.md');
  const compiled = spawnSync(process.execPath, [BIN, 'compile', join(root, 'conf.d'), '--from-state', join(root, 'state'), '--report', out], {
    encoding: 'utf8',
  });
  assert.equal(compiled.status, 0, compiled.stderr);
  const text = readFileSync(out, 'utf8');
  assert.match(text, /## What will behave differently \(rehearsed on live events\)/);
  assert.match(text, /10 events on 8 checks, 10 agreeing, 0 diverging/);
  assert.doesNotMatch(text, /another configuration/);
});

test('a configuration change starts the history again; --no-rehearsal leaves it empty', async (t) => {
  const conf = (command: string) => ({
    client: { name: 'reloaded', address: '127.0.0.1', subscriptions: ['web'] },
    handlers: { sink: { type: 'pipe', command: SINK } },
    checks: { disk: check({ handlers: ['sink'], command }) },
  });
  const root = makeTree({ 'conf.d/config.json': conf('true') });
  const instance = await startInstance(root, [], { TZ: 'UTC' });
  const offRoot = makeTree({ 'conf.d/config.json': conf('true') });
  const off = await startInstance(offRoot, ['--no-rehearsal']);
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    await off.daemon.stop('SIGKILL');
    removeTree(root);
    removeTree(offRoot);
  });
  const authorization = `Bearer ${(await getJson(`${instance.v2}/auth`, { headers: adminBasic })).body.access_token}`;
  const read = async (at: Instance) => (await getJson(`${at.v2}/api/checkbridge/v1/rehearsal`, { headers: { authorization } })).body;
  const send = (at: Instance) => tcpExchange(at.socket, JSON.stringify({ name: 'disk', output: 'full', status: 2 }));
  await send(instance);
  await send(instance);
  const before = await eventually(
    () => read(instance),
    (body) => body.seen === 2,
  );
  assert.equal(before.seen, 2);
  writeTree(root, { 'conf.d/config.json': conf('check-disk -w 80') });
  await instance.daemon.waitFor((l) => l.msg === 'settings changed');
  await send(instance);
  const after = await eventually(
    () => read(instance),
    (body) => body.configuration !== before.configuration && body.seen === 1,
  );
  assert.notEqual(after.configuration, before.configuration);
  assert.deepEqual([after.seen, after.agreed], [1, 1], 'only the event after the change');
  assert.equal(after.skipped, 0);

  // A check the configuration does not define: in Sensu Go its event names its handler, which then has no filters.
  await tcpExchange(instance.socket, JSON.stringify({ name: 'adhoc', output: 'fine', status: 0, handlers: ['sink'] }));
  const adhoc = await eventually(
    () => read(instance),
    (body) => body.seen === 2,
  );
  const divergence = adhoc.checks.find((c: any) => c.check === 'adhoc').first[0];
  assert.deepEqual(divergence.kinds, ['unconfigured']);
  assert.deepEqual(divergence.handlers, [
    { handler: 'sink', legacy: 'not handled: legacy handles non-OK results, resolutions, flapping and metrics only', v2: 'handled (event as JSON)' },
  ]);
  assert.match(divergence.why[0], /check adhoc has no CheckConfig/);

  const offAuthorization = `Bearer ${(await getJson(`${off.v2}/auth`, { headers: adminBasic })).body.access_token}`;
  await send(off);
  await send(off);
  // Given the time a rehearsal takes above, none ever starts: the history stays without a configuration.
  const empty = await eventually(
    async () => (await getJson(`${off.v2}/api/checkbridge/v1/rehearsal`, { headers: { authorization: offAuthorization } })).body,
    (body) => body.configuration !== null,
    3000,
  );
  assert.deepEqual([empty.configuration, empty.seen], [null, 0]);
});
