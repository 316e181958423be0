import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { makeTree, removeTree, writeTree } from '../helpers/tree.js';
import { startInstance, getJson, eventually } from '../helpers/instance.js';
import { startDaemon, type Daemon } from '../helpers/daemon.js';
import { freePort, tcpExchange } from '../helpers/net.js';
import { BIN } from '../helpers/paths.js';

const CLIENT = { client: { name: 'log-host', address: '127.0.0.1', subscriptions: [] } };
const CHANGED = 'SIGUSR1: log level changed';

/** Sends SIGUSR1; resolves with the reported change and where it sits in the log. */
async function cycle(daemon: Daemon): Promise<{ at: number; level: string; previous: string }> {
  const after = daemon.logs.length;
  daemon.proc.kill('SIGUSR1');
  const line = await daemon.waitFor((l) => l.msg === CHANGED, 10_000, after);
  return { at: daemon.logs.indexOf(line), level: String(line.log_level), previous: String(line.previous_log_level) };
}

/** Whether a result sent now shows its debug line ('event processed') before the next SIGUSR1 change. */
async function debugShown(daemon: Daemon, socket: number, check: string): Promise<{ debug: boolean; next: Awaited<ReturnType<typeof cycle>> }> {
  // The result's debug line is written before the socket answers ok; the change line after it closes the window.
  const from = daemon.logs.length;
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: check, output: 'x', status: 0 })), 'ok');
  const next = await cycle(daemon);
  return { debug: daemon.logs.slice(from, next.at).some((l) => l.msg === 'event processed' && l.check === check), next };
}

test('SIGUSR1 raises verbosity one level at a time, wraps from trace to error, and debug lines follow the level', async (t) => {
  const root = makeTree({ 'conf.d/client.json': CLIENT });
  const instance = await startInstance(root, ['--log-level', 'info']);
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  await instance.daemon.waitFor((l) => l.msg === 'checkbridge running');
  let change = await cycle(instance.daemon);
  const seen: string[] = [`${change.previous}->${change.level}`];
  for (let i = 0; i < 6; i++) {
    const { debug, next } = await debugShown(instance.daemon, instance.socket, `step${i}`);
    seen.push(`${change.level}:${debug ? 'debug lines' : 'no debug lines'}`, `${next.previous}->${next.level}`);
    change = next;
  }
  assert.deepEqual(seen, [
    'info->debug',
    'debug:debug lines',
    'debug->trace',
    'trace:debug lines',
    'trace->error',
    'error:no debug lines',
    'error->warn',
    'warn:no debug lines',
    'warn->info',
    'info:no debug lines',
    'info->debug',
    'debug:debug lines',
    'debug->trace',
  ]);
});

test('log-level in the settings sets the level at start (panic: nothing below; SIGUSR1 then fatal), a change in the file applies at restart', async (t) => {
  const root = makeTree({ 'conf.d/client.json': CLIENT, 'conf.d/log.json': { 'log-level': 'panic' } });
  // This test restarts the daemon on the same ports.
  const [api, socket] = [await freePort({ belowEphemeral: true }), await freePort({ belowEphemeral: true })];
  const args = [
    'run',
    join(root, 'conf.d'),
    '--state-dir',
    join(root, 'state'),
    '--api-port',
    String(api),
    '--socket-port',
    String(socket),
    '--agent-port',
    '0',
    '--v2-port',
    '0',
    '--agentd-port',
    '0',
  ];
  let daemon = startDaemon(args);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  assert.equal(
    (
      await eventually(
        () => getJson(`http://127.0.0.1:${api}/info`).catch(() => ({ status: 0 })),
        (r) => r.status === 200,
        15_000,
      )
    ).status,
    200,
  );
  assert.deepEqual(
    daemon.logs.filter((l) => !l.raw),
    [],
    'panic: no info or warning lines at all',
  );
  assert.equal(
    daemon.logs.some((l) => /Debugger listening/.test(String(l.msg))),
    false,
    'SIGUSR1 never opens the inspector',
  );
  assert.deepEqual(await cycle(daemon).then(({ previous, level }) => [previous, level]), ['panic', 'fatal']);
  assert.deepEqual(await cycle(daemon).then(({ previous, level }) => [previous, level]), ['fatal', 'error']);
  await daemon.stop('SIGTERM');

  // debug in the file: debug lines at start; the file changed to error while running: still debug, until the restart.
  writeTree(root, { 'conf.d/log.json': { 'log-level': 'debug' } });
  daemon = startDaemon(args);
  await daemon.waitFor((l) => l.msg === 'checkbridge running');
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'at_debug', output: 'x', status: 0 })), 'ok');
  await daemon.waitFor((l) => l.msg === 'event processed' && l.check === 'at_debug');
  writeTree(root, { 'conf.d/log.json': { 'log-level': 'error' } });
  const notice = await daemon.waitFor((l) => l.msg === 'log-level changed in the settings: it applies at restart', 15_000);
  assert.equal(notice['log-level'], 'error');
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'still_debug', output: 'x', status: 0 })), 'ok');
  await daemon.waitFor((l) => l.msg === 'event processed' && l.check === 'still_debug');
  await daemon.stop('SIGTERM');
  daemon = startDaemon([...args, '--log-level', 'warn']);
  await eventually(
    () => getJson(`http://127.0.0.1:${api}/info`).catch(() => ({ status: 0 })),
    (r) => r.status === 200,
    15_000,
  );
  assert.deepEqual(await cycle(daemon).then(({ previous }) => previous), 'warn', 'the flag beats the file');
  await daemon.stop('SIGTERM');
  daemon = startDaemon(args);
  await eventually(
    () => getJson(`http://127.0.0.1:${api}/info`).catch(() => ({ status: 0 })),
    (r) => r.status === 200,
    15_000,
  );
  assert.deepEqual(await cycle(daemon).then(({ previous }) => previous), 'error', 'the file, read again at restart');
});

const scriptMissing = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'pipe' });
    return false;
  } catch {
    if (process.env.CI === 'true') throw new Error('util-linux script is required in CI');
    return 'util-linux script is not installed';
  }
})();

/** The daemon on a pseudo-terminal (util-linux script): its terminal output, once it says it runs, then stopped. */
async function onTerminal(root: string, extra: string[]): Promise<string> {
  const command = [
    'echo CHECKBRIDGE_PID $$; exec',
    process.execPath,
    BIN,
    'run',
    join(root, 'conf.d'),
    '--state-dir',
    join(root, 'state'),
    '--api-port',
    '0',
    '--socket-port',
    '0',
    '--agent-port',
    '0',
    '--v2-port',
    '0',
    '--agentd-port',
    '0',
    ...extra,
  ]
    .map((word, i) => (i === 0 ? word : `'${word}'`))
    .join(' ');
  const child = spawn('script', ['-qefc', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const deadline = Date.now() + 20_000;
  while (!/checkbridge running/.test(output) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const pid = Number(/CHECKBRIDGE_PID (\d+)/.exec(output)?.[1]);
  if (pid > 0) process.kill(pid, 'SIGTERM');
  await exited;
  // Colours and carriage returns are the terminal's; the words are what a reader sees.
  return output.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r/g, '');
}

test('on a terminal the log is human-readable; with --log-format json, or through a pipe, it is JSON lines', { skip: scriptMissing }, async (t) => {
  const root = makeTree({ 'conf.d/client.json': CLIENT });
  t.after(() => removeTree(root));
  const pretty = await onTerminal(root, []);
  assert.match(pretty, /^\[[^\]]+\] INFO \(checkbridge\): checkbridge running \{"role":"both",.*\}$/m, pretty.slice(0, 2000));
  assert.match(pretty, /^\[[^\]]+\] INFO \(checkbridge\): legacy API listening \{"address":"127\.0\.0\.1:\d+","tls":false\}$/m, 'a record on one line');
  assert.doesNotMatch(pretty, /^\{"level"/m);

  const json = await onTerminal(root, ['--log-format', 'json']);
  const lines = json.split('\n').filter((l) => l.startsWith('{'));
  assert.ok(
    lines.some((l) => JSON.parse(l).msg === 'checkbridge running'),
    json.slice(0, 2000),
  );
  assert.doesNotMatch(json, /INFO \(checkbridge\): checkbridge running/);

  // Through a pipe (how every other test reads it): JSON lines, parsed by the helper.
  const piped = await startInstance(root);
  t.after(() => piped.daemon.stop('SIGKILL').then(() => undefined));
  const running = await piped.daemon.waitFor((l) => l.msg === 'checkbridge running');
  assert.equal(running.level, 30);
  // Node's own warnings are not ours to format.
  assert.deepEqual(
    piped.daemon.logs.filter((l) => l.raw && !/^\(node:\d+\)|^\(Use `node/.test(String(l.msg))),
    [],
    'every log line is JSON',
  );
});

test('--log-format pretty into a file or pipe: no colour codes, and each record on one line', async (t) => {
  const root = makeTree({ 'conf.d/client.json': CLIENT });
  t.after(() => removeTree(root));
  const daemon = startDaemon(
    [
      'run',
      join(root, 'conf.d'),
      '--state-dir',
      join(root, 'state'),
      '--api-port',
      '0',
      '--socket-port',
      '0',
      '--agent-port',
      '0',
      '--v2-port',
      '0',
      '--log-format',
      'pretty',
    ],
    {
      env: { CHECKBRIDGE_ADMIN_PASSWORD: 'pretty-admin' },
    },
  );
  t.after(() => daemon.stop('SIGKILL').then(() => undefined));
  await daemon.waitFor((l) => /INFO \(checkbridge\): checkbridge running \{/.test(String(l.msg)), 20_000);
  const lines = daemon.logs.map((l) => String(l.msg)).filter((l) => !/^\(node:\d+\)|^\(Use `node/.test(l));
  assert.ok(
    lines.every((l) => !l.includes('\x1b[')),
    'no colour codes',
  );
  for (const line of lines) assert.match(line, /^\[[^\]]+\] [A-Z]+ \(checkbridge\): /, 'every line starts a record');
  assert.ok(lines.some((l) => /legacy API listening \{"address":"127\.0\.0\.1:\d+","tls":false\}$/.test(l)));
});
