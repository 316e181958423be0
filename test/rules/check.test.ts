import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConfigProblem, flapThresholdsProblem, metricFormatProblem, subscriptionsProblem, ttlProblem } from '../../src/rules/check.js';

const CHECK = { command: 'true', interval: 60 };
const problem = (extra: Record<string, unknown>) => checkConfigProblem({ ...CHECK, ...extra });

test("a CheckConfig's schedule: one of a cron or an interval of at least 1 s", () => {
  assert.equal(problem({}), null);
  assert.equal(problem({ interval: 0, cron: '*/5 * * * *' }), null);
  assert.equal(problem({ interval: 0 }), 'check interval must be greater than 0 or a valid cron schedule must be provided');
  assert.equal(problem({ cron: '* * * * *' }), 'must only specify either an interval or a cron schedule');
  assert.match(problem({ interval: 0, cron: 'every day' })!, /^check cron string is invalid: /);
});

test("a CheckConfig's other rules, each message naming the field", () => {
  assert.equal(problem({ ttl: 60 }), 'ttl must be greater than check interval');
  assert.equal(problem({ interval: 1, ttl: 3 }), 'minimum ttl is 5 seconds');
  assert.equal(problem({ subscriptions: ['linux', ''] }), 'subscriptions cannot be empty strings');
  assert.equal(problem({ proxy_entity_name: 'a b' }), 'proxy entity name must be 1 to 255 letters, digits, _ . - : (not . or ..)');
  assert.equal(problem({ proxy_entity_name: 'db:primary' }), null);
  assert.equal(problem({ proxy_requests: { splay_coverage: 101 } }), 'proxy_requests.splay_coverage must be between 0 and 100');
  assert.equal(problem({ proxy_requests: { splay: true } }), 'proxy_requests.splay_coverage must be greater than 0 if splay is enabled');
  assert.match(problem({ proxy_requests: { entity_attributes: ['==='] } })!, /^proxy_requests\.entity_attributes\[0\] is not a valid JavaScript expression/);
  assert.match(problem({ output_metric_format: 'bogus' })!, /^output_metric_format "bogus" is not valid: one of nagios_perfdata, /);
  assert.equal(
    problem({ low_flap_threshold: 50, high_flap_threshold: 20 }),
    'invalid flap thresholds: low_flap_threshold (50) must be below high_flap_threshold (20)',
  );
  assert.equal(problem({ max_output_size: -1 }), 'max_output_size must be 0 or more');
});

test('the parts an event check shares', () => {
  assert.equal(ttlProblem(0, 60), null);
  assert.equal(ttlProblem(undefined, 60), null);
  assert.equal(ttlProblem(61, 60), null);
  assert.equal(flapThresholdsProblem({ low_flap_threshold: 20 }), null);
  assert.equal(subscriptionsProblem(null), null);
  assert.equal(subscriptionsProblem('linux'), 'subscriptions cannot be empty strings');
  assert.equal(metricFormatProblem(''), null);
  assert.equal(metricFormatProblem('prometheus_text'), null);
});
