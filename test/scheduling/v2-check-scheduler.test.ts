// v2 CheckConfigs created through the v2 API are scheduled by the daemon and run on the legacy clients of their
// subscriptions: the in-process client here (the broker fleets in v2-check-fleet.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, eventually, getJson } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

const conf = { client: { name: 'web1', address: '127.0.0.1', subscriptions: ['linux'] }, checkbridge: { keepalive_interval: 1 } };
const checkUrl = (v2: string, name: string) => `${v2}/api/core/v2/namespaces/default/checks/${name}`;
const eventOf = async (v2: string, auth: string, entity: string, check: string) =>
  (await call(`${v2}/api/core/v2/namespaces/default/events/${entity}/${check}`, 'GET', auth)).body;

/** Every distinct `issued` of the check's event seen while `until` has not held, polled. */
async function issuedWhile(v2: string, auth: string, entity: string, check: string, until: (seen: number[]) => boolean, ms = 30_000): Promise<number[]> {
  const seen: number[] = [];
  await eventually(
    async () => {
      const event = await eventOf(v2, auth, entity, check);
      if (event?.check?.issued && !seen.includes(event.check.issued)) seen.push(event.check.issued);
      return seen;
    },
    until,
    ms,
  );
  return seen;
}

test(
  'a v2 CheckConfig runs on the legacy client of its subscription at its interval, with its fields; an edit retimes it, a delete stops it',
  { timeout: 120_000 },
  async (t) => {
    const { v2 } = await instanceFor(t, { 'conf.d/client.json': conf });
    const auth = `Bearer ${await adminToken(v2)}`;
    const disk = {
      metadata: { name: 'disk', labels: { team: 'ops' } },
      command: 'echo disk-:::name:::; exit 1',
      interval: 1,
      publish: true,
      subscriptions: ['linux'],
      handlers: [],
      timeout: 10,
      ttl: 30,
      output_metric_format: 'nagios_perfdata',
    };
    assert.equal((await call(checkUrl(v2, 'disk'), 'PUT', auth, disk)).status, 201);
    const first = await eventually(
      () => eventOf(v2, auth, 'web1', 'disk'),
      (e) => e?.check?.status === 1,
      20_000,
    );
    assert.equal(first.check.output.trim(), 'disk-web1', JSON.stringify(first));
    assert.equal(first.check.command, disk.command);
    assert.equal(first.check.interval, 1);
    assert.deepEqual(first.check.subscriptions, ['linux']);
    assert.equal(first.check.timeout, 10);
    assert.equal(first.check.ttl, 30);
    assert.equal(first.check.output_metric_format, 'nagios_perfdata');
    const everySecond = await issuedWhile(v2, auth, 'web1', 'disk', (s) => s.length >= 4);
    assert.ok(
      everySecond.slice(1).some((x, i) => x - everySecond[i]! === 1),
      `issued: ${everySecond}`,
    );

    // An edit through the API: every request from then on is on the new interval's phase.
    assert.equal((await call(checkUrl(v2, 'disk'), 'PUT', auth, { ...disk, interval: 3, ttl: 0 })).status, 201);
    const retimed = await eventually(
      () => eventOf(v2, auth, 'web1', 'disk'),
      (e) => e?.check?.interval === 3,
      20_000,
    );
    const afterEdit = await issuedWhile(v2, auth, 'web1', 'disk', (s) => s.length >= 3);
    assert.ok(afterEdit[0]! >= retimed.check.issued);
    assert.ok(
      afterEdit.slice(1).every((x, i) => (x - afterEdit[i]!) % 3 === 0),
      `issued after the edit: ${afterEdit}`,
    );

    // A canary tells time: once it ran twice more after the delete (and past one interval of 3 s), disk ran no more.
    const canary = { metadata: { name: 'canary' }, command: 'echo alive', interval: 1, publish: true, subscriptions: ['linux'] };
    assert.equal((await call(checkUrl(v2, 'canary'), 'PUT', auth, canary)).status, 201);
    await eventually(
      () => eventOf(v2, auth, 'web1', 'canary'),
      (e) => e?.check?.status === 0,
      20_000,
    );
    assert.equal((await call(checkUrl(v2, 'disk'), 'DELETE', auth)).status, 204);
    const lastDisk = (await eventOf(v2, auth, 'web1', 'disk')).check.issued;
    const deletedAt = Math.floor(Date.now() / 1000);
    await issuedWhile(v2, auth, 'web1', 'canary', (s) => s.length >= 2 && s.at(-1)! > deletedAt + 4);
    assert.ok((await eventOf(v2, auth, 'web1', 'disk')).check.issued <= lastDisk + 1, 'disk ran after it was deleted');
  },
);

test('publish: false runs only ad hoc; the dashboard lists v2 checks with their next execution, CRON_TZ read', { timeout: 120_000 }, async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': conf });
  const auth = `Bearer ${await adminToken(v2)}`;
  const manual = { metadata: { name: 'manual' }, command: 'echo by-hand', interval: 1, publish: false, subscriptions: ['linux'] };
  const canary = { metadata: { name: 'canary' }, command: 'echo alive', interval: 1, publish: true, subscriptions: ['linux'] };
  // 15 past the hour in Kathmandu (UTC+05:45) is half past in UTC.
  const zoned = { metadata: { name: 'zoned' }, command: 'true', cron: 'CRON_TZ=Asia/Kathmandu 15 * * * *', publish: true, subscriptions: ['linux'] };
  for (const check of [manual, canary, zoned]) assert.equal((await call(checkUrl(v2, check.metadata.name), 'PUT', auth, check)).status, 201);
  await issuedWhile(v2, auth, 'web1', 'canary', (s) => s.length >= 3);
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events/web1/manual`, 'GET', auth)).status, 404);

  const listed = await eventually(
    () => getJson(`${v2}/api/checkbridge/v1/namespaces/default/checks`, { headers: { authorization: auth } }),
    (r) => r.body?.find?.((c: any) => c.name === 'zoned')?.next_execution,
  );
  const byName = Object.fromEntries(listed.body.map((c: any) => [c.name, c]));
  assert.equal(byName.manual.next_execution, null);
  assert.ok(byName.canary.next_execution > Date.now() - 2000);
  assert.equal(new Date(byName.zoned.next_execution).getUTCMinutes(), 30);
  assert.equal(new Date(byName.zoned.next_execution).getUTCSeconds(), 0);

  const executed = await call(`${v2}/api/checkbridge/v1/namespaces/default/checks/manual/execute`, 'POST', auth, {});
  assert.equal(executed.status, 202, JSON.stringify(executed.body));
  const event = await eventually(
    () => eventOf(v2, auth, 'web1', 'manual'),
    (e) => e?.check?.output,
    20_000,
  );
  assert.equal(event.check.output.trim(), 'by-hand');
  assert.equal((await call(`${v2}/api/checkbridge/v1/namespaces/default/checks/nothing/execute`, 'POST', auth, {})).status, 404);
});

test(
  'proxy_requests run once per matching proxy entity, env_vars reach the command, check_hooks run for their status, a ttl gives an event when results stop',
  { timeout: 120_000 },
  async (t) => {
    const { v2, api } = await instanceFor(t, { 'conf.d/client.json': { ...conf, checkbridge: { keepalive_interval: 1, monitor_interval: 1 } } });
    const auth = `Bearer ${await adminToken(v2)}`;
    const put = (path: string, body: any) => call(`${v2}/api/core/v2/namespaces/default/${path}/${body.metadata.name}`, 'PUT', auth, body);
    for (const name of ['px-1', 'px-2', 'other']) assert.equal((await put('entities', { metadata: { name }, entity_class: 'proxy' })).status, 200);
    const proxied = {
      metadata: { name: 'ping' },
      command: 'echo pinged',
      interval: 2,
      publish: true,
      subscriptions: ['linux'],
      proxy_requests: { entity_attributes: ["entity.entity_class == 'proxy'", "entity.name.indexOf('px-') == 0"], splay: true, splay_coverage: 90 },
    };
    assert.equal((await put('hooks', { metadata: { name: 'explain' }, command: 'echo hook-ran', timeout: 5 })).status, 201);
    const failing = {
      metadata: { name: 'failing' },
      command: 'echo bad; exit 2',
      interval: 1,
      publish: true,
      subscriptions: ['linux'],
      check_hooks: [{ 'non-zero': ['explain'] }],
    };
    const lapsing = { metadata: { name: 'lapsing' }, command: 'echo fine', interval: 1, ttl: 5, publish: true, subscriptions: ['linux'] };
    const envy = {
      metadata: { name: 'envy' },
      command: 'echo "$GREETING"',
      env_vars: ['GREETING=hello world'],
      interval: 1,
      publish: true,
      subscriptions: ['linux'],
    };
    for (const check of [proxied, failing, lapsing, envy]) assert.equal((await put('checks', check)).status, 201);
    const greeted = await eventually(
      () => eventOf(v2, auth, 'web1', 'envy'),
      (e) => e?.check?.output,
      20_000,
    );
    assert.equal(greeted.check.output.trim(), 'hello world');

    for (const entity of ['px-1', 'px-2']) {
      const event = await eventually(
        () => eventOf(v2, auth, entity, 'ping'),
        (e) => e?.check?.output,
        20_000,
      );
      assert.equal(event.check.proxy_entity_name, entity);
      assert.equal(event.check.output.trim(), 'pinged');
    }
    assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events/other/ping`, 'GET', auth)).status, 404);
    assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events/web1/ping`, 'GET', auth)).status, 404);

    const result = await eventually(
      async () => (await getJson(`${api}/results/web1/failing`)).body,
      (r) => r?.check?.hooks?.['non-zero']?.output,
      20_000,
    );
    assert.equal(result.check.status, 2);
    assert.equal(result.check.hooks['non-zero'].output.trim(), 'hook-ran');

    await eventually(
      () => eventOf(v2, auth, 'web1', 'lapsing'),
      (e) => e?.check?.status === 0,
      20_000,
    );
    // Results stop (unpublished): the TTL monitor's event follows, as Sensu Go's.
    assert.equal((await put('checks', { ...lapsing, publish: false })).status, 201);
    const lapsed = await eventually(
      () => eventOf(v2, auth, 'web1', 'lapsing'),
      (e) => /Last check execution was/.test(e?.check?.output ?? ''),
      30_000,
    );
    assert.equal(lapsed.check.status, 1);
  },
);
