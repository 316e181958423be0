// What every fault test shares: a stream of legacy results over the client socket, the answers kept, and the invariants
// checked after the fault (every acknowledged result stored and handled once; no check request twice per interval).
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { getJson, eventually } from '../helpers/instance.js';
import type { Collector } from '../helpers/net.js';
import type { Daemon } from '../helpers/daemon.js';

/** One result sent: its check name, the server's answer ('ok' is an acknowledgement), and when the answer came. */
export interface Sent {
  readonly name: string;
  readonly answer: string;
  readonly at: number;
}

/** One TCP exchange that gives up after `ms` (a socket held open by a stalled store answers nothing). */
function exchange(port: number, payload: string, ms: number, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    let answer = '';
    const done = (why?: string) => (socket.destroy(), resolve(why ?? answer));
    socket.setTimeout(ms, () => done(`no answer within ${ms} ms`));
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('end', () => done());
    socket.on('close', () => done());
    socket.on('error', (error) => done(`error: ${error.message}`));
    socket.on('connect', () => socket.write(payload));
  });
}

/** Senders, one loop per socket port, each result a check of its own (`prefix-loop-i`) that goes to `handlers`. */
export function flow(
  ports: readonly number[],
  prefix: string,
  handlers: string[],
  options: { pauseMs?: number; timeoutMs?: number; hosts?: readonly string[] } = {},
) {
  const sent: Sent[] = [];
  let running = true;
  const loops = ports.map(async (port, k) => {
    for (let i = 0; running; i++) {
      const name = `${prefix}-${k}-${i}`;
      const payload = JSON.stringify({ name, output: name, status: 2, handlers });
      const answer = await exchange(port, payload, options.timeoutMs ?? 40_000, options.hosts?.[k]);
      sent.push({ name, answer, at: Date.now() });
      // Nobody listening (a stopped daemon): the next try after a pause a legacy client would take, not at once.
      await sleep(answer.includes('ECONNREFUSED') ? 200 : (options.pauseMs ?? 20));
    }
  });
  return {
    sent,
    acked: () => sent.filter((s) => s.answer === 'ok'),
    async stop(): Promise<void> {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** How many answers of each kind: `{"ok": 410, "invalid": 3}`. */
export function answers(sent: readonly Sent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of sent) counts[s.answer.slice(0, 80)] = (counts[s.answer.slice(0, 80)] ?? 0) + 1;
  return counts;
}

/** The check names a tcp handler received, one entry per handling. */
export function handledNames(collector: Collector): string[] {
  return collector.received.map((payload) => String(JSON.parse(payload).check.name));
}

/**
 * Every acknowledged result is stored once (history of one) and handled exactly once; nothing is handled twice. Those
 * `mayLose` names (a client's `ok` for a result still inside a broker that was killed) may be missing: counted as lost.
 */
export async function assertAckedStoredOnce(
  api: string,
  clients: readonly string[],
  sent: readonly Sent[],
  collector: Collector,
  mayLose: (s: Sent) => boolean = () => false,
) {
  const histories = new Map<string, number>();
  for (const client of clients) {
    const results = await getJson(`${api}/results/${client}`);
    assert.equal(results.status, 200, `results of ${client}: ${results.status}`);
    for (const r of results.body as { check: { name: string; history: unknown[] } }[]) histories.set(r.check.name, r.check.history.length);
  }
  const missing = sent.filter((s) => s.answer === 'ok' && !histories.has(s.name));
  const lostOutside = missing.filter((s) => !mayLose(s)).map((s) => s.name);
  assert.deepEqual(lostOutside, [], `${lostOutside.length} acknowledged results not stored`);
  const acked = sent.filter((s) => s.answer === 'ok' && histories.has(s.name)).map((s) => s.name);
  const twice = acked.filter((name) => histories.get(name) !== 1);
  assert.deepEqual(twice, [], 'acknowledged results processed more than once');
  const handled = await eventually(
    async () => handledNames(collector),
    (names) => acked.every((name) => names.includes(name)),
    30_000,
  );
  const counts = new Map<string, number>();
  for (const name of handled) counts.set(name, (counts.get(name) ?? 0) + 1);
  assert.deepEqual(
    acked.filter((name) => counts.get(name) !== 1),
    [],
    'acknowledged results not handled exactly once',
  );
  assert.deepEqual(
    [...counts].filter(([, n]) => n > 1),
    [],
    'results handled twice',
  );
  return {
    acked: acked.length + missing.length,
    lost: missing.length,
    stored: acked.filter((name) => histories.get(name) === 1).length,
    handledOnce: acked.filter((n) => counts.get(n) === 1).length,
  };
}

/** The `issued` seconds of every request of `check` the daemons published, in order. */
export function issuedOf(daemons: readonly Daemon[], check: string): number[] {
  return daemons
    .flatMap((d) => d.logs.filter((l) => l.msg === 'publishing check request' && l.check === check).map((l) => Number(l.issued)))
    .sort((a, b) => a - b);
}

/** Two requests of one slot are `issued` in the same second; a late timer moves one by under a second, so requests of an
 * interval of `intervalS` are at least `intervalS - 1` s apart. */
export function assertNoRequestTwice(issued: readonly number[], intervalS: number): void {
  const close = issued.slice(1).filter((at, i) => at - issued[i]! < intervalS - 1);
  assert.deepEqual(close, [], `check requests issued twice in one interval: ${JSON.stringify(issued)}`);
}

/** The first request of `check` published at or after `from` (epoch ms), by any daemon: its time, or null. */
export async function firstRequestAfter(daemons: readonly Daemon[], check: string, from: number, ms = 15_000): Promise<number | null> {
  const find = () =>
    daemons
      .flatMap((d) => d.logs.filter((l) => l.msg === 'publishing check request' && l.check === check).map((l) => Date.parse(String(l.time))))
      .filter((at) => at >= from)
      .sort((a, b) => a - b)[0] ?? null;
  const deadline = Date.now() + ms;
  while (find() === null && Date.now() < deadline) await sleep(100);
  return find();
}

/** A process's resident memory in MB (VmRSS of /proc/PID/status). */
export function rssMb(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(line, `no VmRSS in /proc/${pid}/status`);
  return Math.round(Number(line[1]) / 1024);
}

/**
 * Memory returns to its level before the fault: RSS after recovery within before×1.5 + 40 MB. V8 keeps the heap a burst
 * of retries and backlog grew to for a while after it is garbage (and a fresh daemon's RSS is 100-200 MB), so only a
 * generous bound avoids false alarms; what it catches is what a fault must never do, keep what it queued.
 */
export function assertMemoryReturned(t: { diagnostic(message: string): void }, label: string, beforeMb: number, afterMb: number): void {
  const bound = Math.round(beforeMb * 1.5 + 40);
  t.diagnostic(`${label}: RSS ${beforeMb} MB before the fault, ${afterMb} MB after recovery (bound ${bound} MB)`);
  assert.ok(afterMb <= bound, `${label}: RSS ${afterMb} MB after recovery, more than ${bound} MB (${beforeMb} MB before the fault ×1.5 + 40)`);
}
