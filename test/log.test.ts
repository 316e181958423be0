import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger, isLogLevel, nextLogLevel, pinoLevelOf } from '../src/log.js';
import { makeTree, removeTree } from './helpers/tree.js';

function collector(): { stream: Writable; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { stream, lines };
}

test('the legacy levels are known, panic included; others are not', () => {
  for (const level of ['panic', 'fatal', 'error', 'warn', 'info', 'debug', 'trace']) assert.equal(isLogLevel(level), true, level);
  for (const level of ['silent', 'warning', 'INFO', '']) assert.equal(isLogLevel(level), false, level);
});

test('SIGUSR1 steps one level more verbose, wrapping after trace (and from anything unknown) to error', () => {
  assert.equal(nextLogLevel('panic'), 'fatal');
  assert.equal(nextLogLevel('warn'), 'info');
  assert.equal(nextLogLevel('debug'), 'trace');
  assert.equal(nextLogLevel('trace'), 'error');
  assert.equal(nextLogLevel('verbose'), 'error');
});

test('panic runs as pino fatal; the other levels as themselves', () => {
  assert.equal(pinoLevelOf('panic'), 'fatal');
  assert.equal(pinoLevelOf('trace'), 'trace');
  assert.equal(pinoLevelOf('warn'), 'warn');
});

test('lines are JSON named checkbridge with an ISO time, below the level dropped, secrets redacted', () => {
  const { stream, lines } = collector();
  const logger = createLogger('warn', stream);
  logger.info('quiet');
  logger.warn({ password: 'hunter2', host: 'db' }, 'loud');
  assert.equal(lines.length, 1);
  const line = lines[0]!;
  assert.equal(line.name, 'checkbridge');
  assert.equal(line.msg, 'loud');
  assert.equal(line.host, 'db');
  assert.notEqual(line.password, 'hunter2');
  assert.match(String(line.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

test('panic logs fatal lines; silent logs nothing', () => {
  const panic = collector();
  const logger = createLogger('panic', panic.stream);
  logger.error('dropped');
  logger.fatal('kept');
  assert.deepEqual(
    panic.lines.map((l) => [l.level, l.msg]),
    [[60, 'kept']],
  );
  const silent = collector();
  createLogger('silent', silent.stream).fatal('nothing');
  assert.deepEqual(silent.lines, []);
});

test('to a file descriptor: JSON lines, or one human-readable line a record for pretty', (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const jsonPath = join(dir, 'json.log');
  const jsonFd = openSync(jsonPath, 'w');
  createLogger('info', jsonFd).info({ check: 'disk' }, 'ran');
  closeSync(jsonFd);
  const line = JSON.parse(readFileSync(jsonPath, 'utf8').trim()) as Record<string, unknown>;
  assert.equal(line.msg, 'ran');
  assert.equal(line.check, 'disk');
  const prettyPath = join(dir, 'pretty.log');
  const prettyFd = openSync(prettyPath, 'w');
  createLogger('info', prettyFd, 'pretty').info({ check: 'disk' }, 'ran');
  closeSync(prettyFd);
  const pretty = readFileSync(prettyPath, 'utf8');
  assert.equal(pretty.split('\n').filter(Boolean).length, 1);
  assert.match(pretty, /INFO.*ran.*check.*disk/);
  assert.doesNotMatch(pretty, /\u001b\[/, 'no colours into a file');
});
