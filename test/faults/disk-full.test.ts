// The state directory's filesystem full (a small tmpfs mounted for the test), then space freed, while results flow: what
// was answered `ok` is kept and handled once, the refusals name the full disk, and results are taken again once space is back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { getJson, startInstance, type Instance } from '../helpers/instance.js';
import { tcpCollector } from '../helpers/net.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { answers, assertAckedStoredOnce, assertMemoryReturned, flow, rssMb } from './flow.js';

/** Why a tmpfs cannot be mounted here, or null (mounting needs root). */
function mountMissing(): string | null {
  return process.getuid?.() === 0 ? null : 'mounting a small tmpfs for the state directory needs root';
}

/** Writes zeros into `file` until the filesystem refuses (ENOSPC); returns the bytes written. */
function fill(file: string): number {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  let written = 0;
  try {
    for (;;) written += writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  // The last pages: writes of one 512-byte piece until even that is refused.
  const tail = openSync(file, 'a');
  try {
    for (;;) written += writeSync(tail, chunk.subarray(0, 512));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(tail);
  }
  return written;
}

test('state directory full, then freed: acknowledged results kept and handled once, refusals name the disk, results taken again', async (t) => {
  const missing = mountMissing();
  if (missing) {
    if (process.env.CI === 'true') throw new Error(`required under CI: ${missing}`);
    return t.skip(missing);
  }
  const collector = await tcpCollector();
  const root = makeTree({
    'conf.d/config.json': {
      client: { name: 'full-host', address: '127.0.0.1', subscriptions: [] },
      handlers: { record: { type: 'tcp', socket: { host: '127.0.0.1', port: collector.port } } },
    },
  });
  const state = join(root, 'state');
  mkdirSync(state);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m,mode=0700', 'tmpfs', state]);
  let instance: Instance | null = null;
  t.after(async () => {
    await instance?.daemon.stop('SIGKILL');
    execFileSync('umount', [state]);
    removeTree(root);
    await collector.close();
  });
  instance = await startInstance(root);
  const load = flow([instance.socket], 'full', ['record']);
  await sleep(1500);
  const before = rssMb(instance.daemon.proc.pid!);
  const faultAt = Date.now();
  const filled = fill(join(state, 'filler'));
  const mark = instance.daemon.logs.length;
  // Full until a refusal has been answered, and a little longer.
  while (!load.sent.some((s) => s.at > faultAt && s.answer !== 'ok') && Date.now() - faultAt < 20_000) await sleep(100);
  await sleep(1000);
  assert.equal(
    instance.daemon.proc.exitCode,
    null,
    `the daemon exited with the disk full: ${JSON.stringify(
      instance.daemon.logs
        .slice(mark)
        .filter((l) => l.level !== 'debug')
        .slice(-30),
    )}`,
  );
  const health = await getJson(`${instance.v2}/health`);
  rmSync(join(state, 'filler'));
  const faultEnd = Date.now();
  while (!load.sent.some((s) => s.at > faultEnd && s.answer === 'ok') && Date.now() - faultEnd < 15_000) await sleep(100);
  await sleep(1000);
  await load.stop();
  const healthAfter = await getJson(`${instance.v2}/health`);

  assert.equal(instance.daemon.proc.exitCode, null, 'the daemon kept running');
  const during = load.sent.filter((s) => s.at > faultAt && s.at <= faultEnd);
  assert.ok(
    during.some((s) => s.answer !== 'ok'),
    `nothing refused while the disk was full: ${JSON.stringify(answers(during))}`,
  );
  const named = instance.daemon.logs.slice(mark).filter((l) => /disk is full/.test(JSON.stringify(l)));
  assert.ok(named.length > 0, `no log line names the full disk: ${JSON.stringify(instance.daemon.logs.slice(mark, mark + 5))}`);
  assert.match(String(health.body?.Alarms), /^NOSPACE: the disk holding the embedded datastore is full/, 'the v2 /health alarm while the disk is full');
  assert.equal(healthAfter.body?.Alarms, null, 'the alarm ends once space is freed');
  const firstOk = load.sent.find((s) => s.at > faultEnd && s.answer === 'ok');
  assert.ok(firstOk && firstOk.at - faultEnd < 15_000, 'results are acknowledged again within 15 s of space freed');
  const figures = await assertAckedStoredOnce(instance.api, ['full-host'], load.sent, collector);
  assertMemoryReturned(t, 'daemon', before, rssMb(instance.daemon.proc.pid!));
  t.diagnostic(
    `state dir full (${filled} bytes of filler) for ${faultEnd - faultAt} ms: answered during it ${JSON.stringify(answers(during))}; ` +
      `v2 /health Alarms while full ${JSON.stringify(health.body?.Alarms)}, after ${JSON.stringify(healthAfter.body?.Alarms)}; first ok ${firstOk!.at - faultEnd} ms after space was freed; ` +
      `acknowledged ${figures.acked}, stored ${figures.stored}, handled once ${figures.handledOnce}; lines naming it: ${JSON.stringify([...new Set(named.map((l) => `${l.msg}: ${l.error ?? l.err ?? ''}`))])}`,
  );
});
