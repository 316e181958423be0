// One connection's refused agent messages: the first ten logged, the rest counted and summarised once a minute, and
// the one malformed frame too many that closes the connection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GARBAGE_LIMIT, RefusalLog } from '../../src/agentd/refusals.js';
import { ManualClock } from '../../src/schedule/clock.js';
import { capturedLogger } from '../helpers/log-capture.js';

const QUIET = 'agent messages refused: further refusals of this connection are counted and said once a minute';
const SUMMARY = 'agent messages refused (counted, not logged one by one)';

function refusalLog() {
  const { logger, lines, messages } = capturedLogger();
  const clock = new ManualClock(1_000_000);
  const log = new RefusalLog(logger, clock, { agent: 'web-01', namespace: 'default' });
  return { log, clock, lines, messages };
}

test('the first ten refusals are logged one by one with the connection and their own fields, then said to be counted', () => {
  const { log, lines, messages } = refusalLog();
  for (let i = 0; i < 12; i++) log.note(`refused ${i}`, { frame: i }, false);
  assert.deepEqual(messages(), [...Array.from({ length: 10 }, (_, i) => `refused ${i}`), QUIET]);
  assert.equal(lines[3]!.agent, 'web-01');
  assert.equal(lines[3]!.namespace, 'default');
  assert.equal(lines[3]!.frame, 3);
  assert.equal(lines[3]!.level, 40, 'a warning');
  assert.equal(lines[10]!.logged, 10);
});

test('past the first ten, a summary is said once a minute, with the refusals unsaid since the last and the total', () => {
  const { log, clock, lines, messages } = refusalLog();
  for (let i = 0; i < 15; i++) log.note('refused', {}, false);
  assert.equal(messages().length, 11, 'five counted, none logged');
  clock.advanceBy(59_999);
  log.note('refused', {}, false);
  assert.equal(messages().length, 11, 'not yet a minute since it went quiet');
  clock.advanceBy(1);
  log.note('refused', {}, false);
  assert.equal(messages().at(-1), SUMMARY);
  assert.equal(lines.at(-1)!.refused, 7);
  assert.equal(lines.at(-1)!.total, 17);
  assert.equal(lines.at(-1)!.agent, 'web-01');
  // The minute starts again from the summary.
  clock.advanceBy(30_000);
  log.note('refused', {}, false);
  assert.equal(messages().length, 12);
  clock.advanceBy(30_000);
  log.note('refused', {}, false);
  assert.deepEqual([messages().length, lines.at(-1)!.refused, lines.at(-1)!.total], [13, 2, 19]);
});

test("summarize says the unsaid count at once (the connection's end), and nothing when there is none", () => {
  const { log, lines, messages } = refusalLog();
  for (let i = 0; i < 10; i++) log.note('refused', {}, false);
  log.summarize();
  assert.equal(messages().length, 11, 'every refusal was logged: nothing to sum up');
  log.note('refused', {}, false);
  log.note('refused', {}, false);
  log.summarize();
  assert.deepEqual([messages().at(-1), lines.at(-1)!.refused, lines.at(-1)!.total], [SUMMARY, 2, 12]);
  log.summarize();
  assert.equal(messages().length, 12, 'said once');
});

test('refuse is true exactly once: at the malformed frame that reaches the limit, whatever else was refused', () => {
  const { log } = refusalLog();
  const answers: boolean[] = [];
  for (let i = 0; i < GARBAGE_LIMIT - 1; i++) answers.push(log.note('malformed', {}, true));
  // Refusals of well-formed frames do not count toward it.
  for (let i = 0; i < 50; i++) answers.push(log.note('refused', {}, false));
  assert.ok(answers.every((answer) => !answer));
  assert.equal(log.note('malformed', {}, true), true);
  assert.equal(log.note('malformed', {}, true), false);
});
