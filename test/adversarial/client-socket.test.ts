import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { instanceFor, getJson, eventually } from '../helpers/instance.js';
import { tcpExchange } from '../helpers/net.js';

const client = { name: 'sock', address: '127.0.0.1', subscriptions: [] };
const MiB = 1024 * 1024;

/** Writes `parts` one by one (Nagle off, a pause between), so each arrives as its own read; resolves with the answer. */
function sendInPieces(port: number, parts: Buffer[], gapMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.on('connect', async () => {
      for (const part of parts) {
        socket.write(part);
        await sleep(gapMs);
      }
    });
  });
}

/** Cuts `bytes` inside every multi-byte character and right after every backslash. */
function cutAtHardPlaces(bytes: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i + 1 < bytes.length; i++) {
    if ((bytes[i]! >= 0xc0 && (bytes[i + 1]! & 0xc0) === 0x80) || bytes[i] === 0x5c) {
      parts.push(bytes.subarray(start, i + 1));
      start = i + 1;
    }
  }
  parts.push(bytes.subarray(start));
  return parts;
}

test('non-ASCII text and escapes split across TCP reads arrive intact (a single result, an array, ping)', async (t) => {
  const { socket, api } = await instanceFor(t, { 'conf.d/a.json': { client } });
  const output = 'café é 日本語 😀 ünïcödé — ok {"quoted": ["x\\"]} ]} \\';
  const single = Buffer.from(JSON.stringify({ name: 'unicode_one', output, status: 1 }));
  const parts = cutAtHardPlaces(single);
  assert.ok(parts.length >= 8, 'the payload was not cut at enough places');
  assert.equal(await sendInPieces(socket, parts, 25), 'ok');
  const event = await getJson(`${api}/events/sock/unicode_one`);
  assert.equal(event.body.check.output, output);
  assert.equal((await getJson(`${api}/results/sock/unicode_one`)).body.check.output, output);

  const batch = Buffer.from(
    JSON.stringify([
      { name: 'unicode_a', output: '日本', status: 0 },
      { name: 'unicode_b', output: '🚀 é', status: 2 },
    ]),
  );
  assert.equal(await sendInPieces(socket, cutAtHardPlaces(batch), 25), 'ok');
  assert.equal((await getJson(`${api}/results/sock/unicode_a`)).body.check.output, '日本');
  assert.equal((await getJson(`${api}/events/sock/unicode_b`)).body.check.output, '🚀 é');
  assert.equal(await sendInPieces(socket, [Buffer.from(' pi'), Buffer.from('ng\n')], 25), 'pong');
});

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.split(/\s+/)[1]) * 1024;
}

interface Attacker {
  answer: string;
  /** Milliseconds from the first byte to the server closing the connection. */
  closedAfter: number | null;
  socket: Socket;
}

/** Sends a large unfinished result, then one more byte every `trickleMs` and ignores any answer, until the server closes. */
function attack(port: number, prefix: Buffer, trickleMs: number): Attacker {
  const socket = connect(port, '127.0.0.1');
  const attacker: Attacker = { answer: '', closedAfter: null, socket };
  let started = 0;
  let trickle: NodeJS.Timeout | null = null;
  socket.on('data', (d) => (attacker.answer += d));
  socket.on('error', () => undefined);
  socket.on('close', () => {
    if (trickle) clearInterval(trickle);
    attacker.closedAfter = Date.now() - started;
  });
  socket.on('connect', () => {
    socket.setNoDelay(true);
    started = Date.now();
    socket.write(prefix);
    trickle = setInterval(() => socket.writable && socket.write('x'), trickleMs);
  });
  return attacker;
}

test('slow senders holding large unfinished results cannot exhaust memory or starve others, and are let go', async (t) => {
  const { daemon, socket, api } = await instanceFor(t, { 'conf.d/a.json': { client } });
  const pid = daemon.proc.pid!;
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'warm', output: 'x', status: 0 })), 'ok');
  await sleep(500);
  const baseline = rssBytes(pid);

  // Just under the 1 MiB max message size, so only the total bound can stop them.
  const prefix = Buffer.from('{"name":"flood","output":"' + 'x'.repeat(MiB - 200));
  const attackers = Array.from({ length: 200 }, () => attack(socket, prefix, 300));
  t.after(() => attackers.forEach((a) => a.socket.destroy()));

  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 100);
  t.after(() => clearInterval(sampler));
  await sleep(2000);
  const pingStarted = Date.now();
  const pong = await Promise.race([tcpExchange(socket, 'ping'), sleep(2000, 'no answer within 2 s')]);
  const pingMs = Date.now() - pingStarted;
  assert.equal(pong, 'pong', `ping during the attack: ${pong}`);
  const normal = await Promise.race([
    tcpExchange(socket, JSON.stringify({ name: 'during', output: 'still served', status: 1 })),
    sleep(2000, 'no answer within 2 s'),
  ]);
  assert.equal(normal, 'ok');
  await sleep(1000);
  clearInterval(sampler);
  const refusedEarly = attackers.filter((a) => a.answer === 'invalid').length;
  assert.ok(peak < baseline + 256 * MiB, `daemon RSS went from ${baseline >> 20} MiB to ${peak >> 20} MiB`);
  assert.ok(refusedEarly > 0, 'no attacker was refused while the buffers were full');
  assert.ok(pingMs < 2000, `ping took ${pingMs} ms`);

  // Every attacker is answered and dropped, though it keeps trickling: the rest by the per-message deadline.
  await eventually(
    async () => attackers.every((a) => a.closedAfter !== null),
    (done) => done,
    16_000,
  );
  assert.deepEqual([...new Set(attackers.map((a) => a.answer))], ['invalid']);
  const slowest = Math.max(...attackers.map((a) => a.closedAfter ?? Infinity));
  assert.ok(slowest < 15_000, `an attacker was held ${slowest} ms`);
  assert.equal((await getJson(`${api}/events/sock/during`)).body.check.output, 'still served');

  // Handed back, not merely bounded: the held messages' pages leave the process (V8 and malloc keep some of the churn).
  const released = (rss: number) => rss < baseline + 96 * MiB && rss < peak - 24 * MiB;
  const after = await eventually(async () => rssBytes(pid), released, 8000);
  t.diagnostic(`RSS baseline ${baseline >> 20} MiB, peak ${peak >> 20} MiB, after ${after >> 20} MiB; ping ${pingMs} ms; ${refusedEarly} refused early`);
  assert.ok(released(after), `daemon RSS stayed at ${after >> 20} MiB (baseline ${baseline >> 20} MiB, peak ${peak >> 20} MiB)`);
  assert.equal(await tcpExchange(socket, 'ping'), 'pong');
});

test('socket: checkbridge.socket_buffer_limit and socket_message_timeout are read from the settings', async (t) => {
  const { socket, daemon } = await instanceFor(t, {
    'conf.d/client.json': { client, checkbridge: { socket_buffer_limit: 256 * 1024, socket_message_timeout: 1 } },
  });
  // 300 KB unfinished is over a 256 KiB bound: refused at once, with the bound named.
  const big = Buffer.from('{"name":"big","output":"' + 'a'.repeat(300_000));
  assert.equal(await sendInPieces(socket, [big], 10), 'invalid');
  const full = await daemon.waitFor((l) => l.msg === 'client socket buffers full, refusing message', 5000);
  assert.equal(full.limit, 256 * 1024);
  // A trickle that never finishes is closed by the 1 s deadline, before the 0.5 s watchdog could ever fire.
  const trickle = Array.from({ length: 10 }, (_, i) => Buffer.from(i === 0 ? '{"name":"slow","output":"' : 'x'));
  const started = Date.now();
  assert.equal(await sendInPieces(socket, trickle, 300), 'invalid');
  await daemon.waitFor((l) => l.msg === 'client socket message not complete in time, closing connection', 5000);
  assert.ok(Date.now() - started < 3000);
});
