// Listening for the store's change notifications on a connection of its own: each committed change handed over,
// listening reported on and off as the connection comes and goes, and a new connection made on its own.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { ChangeListener, CHANGES_CHANNEL, type ChangeHearer } from '../../../src/store/postgres/change-listener.js';
import { ReachProbe } from '../../../src/store/postgres/reach-probe.js';
import { poolConfigOf } from '../../../src/store/postgres/connection.js';
import { postgresForFile } from '../../servers/postgres.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { until } from '../../helpers/wait.js';

const { server, missing, freshDsn } = await postgresForFile('listener');

/** What the listener told its hearer, in order. */
class Heard implements ChangeHearer {
  readonly calls: string[] = [];
  readonly heardAt: number[] = [];
  setListening(on: boolean): void {
    this.calls.push(on ? 'listening' : 'not listening');
  }
  heardUntil(at: number): void {
    this.heardAt.push(at);
  }
  changed(table: string): void {
    this.calls.push(`changed ${table}`);
  }
}

function listenerOn(t: TestContext, dsn: string, name: string) {
  const { max: _max, ...connection } = poolConfigOf(`${dsn}?application_name=${name}`, 1, {});
  const heard = new Heard();
  const log = capturedLogger();
  const listener = new ChangeListener(connection, heard, log.logger, new ReachProbe(dsn, {}));
  t.after(() => listener.close());
  return { listener, heard, messages: log.messages };
}

const notify = (payload: string, channel = CHANGES_CHANNEL, database = 'postgres') => server!.query(`NOTIFY ${channel}, '${payload}'`, database);

test('listening: each notification on the changes channel is handed over, and probes say until when all was heard', async (t) => {
  if (!server) return void t.skip(missing!);
  const before = performance.now();
  const { listener, heard } = listenerOn(t, server.url(), 'hears');
  assert.equal(listener.notListening, 'not listening yet');
  await listener.start();
  assert.equal(listener.notListening, null);
  assert.equal(listener.silent, null);
  assert.deepEqual(heard.calls, ['listening']);
  assert.ok(heard.heardAt[0]! >= before && heard.heardAt[0]! <= performance.now(), 'from when LISTEN was sent');
  await notify('users');
  await notify('other', 'some_other_channel');
  await notify('v2_resources');
  assert.ok(await until(() => heard.calls.length >= 3, 10_000));
  assert.deepEqual(heard.calls, ['listening', 'changed users', 'changed v2_resources']);
  // The probe each second moves the time forward.
  const first = heard.heardAt[0]!;
  assert.ok(await until(() => heard.heardAt.some((at) => at > first), 10_000), 'a probe was answered');
  await listener.close();
  assert.equal(heard.calls.at(-1), 'not listening');
  await notify('api_keys');
  await server.query('SELECT 1');
  assert.ok(!heard.calls.includes('changed api_keys'), 'nothing heard once closed');
});

test('its connection ended: listening stops at once, with the reason, and starts again on a new connection', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDsn();
  const { listener, heard, messages } = listenerOn(t, dsn, 'ended');
  await listener.start();
  await server.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'ended store changes'");
  assert.ok(await until(() => heard.calls.includes('not listening'), 10_000), 'told at once');
  assert.ok(listener.notListening, 'with a reason');
  assert.ok(messages().some((m) => m.startsWith("store: not listening for other servers' changes")));
  assert.ok(await until(() => listener.notListening === null, 10_000), 'listening again');
  assert.deepEqual(heard.calls, ['listening', 'not listening', 'listening']);
  assert.ok(messages().includes("store: listening for other servers' changes again, configuration caches on"));
  await notify('users', CHANGES_CHANNEL, new URL(dsn).pathname.slice(1));
  assert.ok(await until(() => heard.calls.includes('changed users'), 10_000), 'the new connection hears');
});

test('nothing to connect to: not listening, with the connection’s error as the reason', async (t) => {
  const { listener, heard } = listenerOn(t, `postgres://postgres@127.0.0.1:1/none`, 'refused');
  await listener.start();
  assert.match(String(listener.notListening), /ECONNREFUSED/);
  assert.deepEqual(heard.calls, ['not listening']);
});
