// Migration lint: names used but never defined, handler set loops, and tokens no client running a check can fill.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintConfiguration } from '../../src/legacy/lint.js';

test('a configuration that defines what it names has no finding; built-in names need no definition', () => {
  const merged = {
    client: { name: 'web', subscriptions: ['linux'], disk: { warning: 80 } },
    checks: { disk: { command: 'check -w :::disk.warning::: -c :::disk.critical|95:::', subscribers: ['linux'], handlers: ['mail', 'default', 'keepalive'] } },
    handlers: { mail: { type: 'pipe', command: 'mail', filters: ['occurrences', 'check_dependencies', 'prod'], mutator: 'only_check_output' } },
    filters: { prod: { attributes: {} } },
  };
  assert.deepEqual(lintConfiguration(merged), []);
});

test('each undefined handler, filter, mutator and extension is named where it is written, with what legacy does', () => {
  const merged = {
    checks: { disk: { handlers: ['mail', 'nope'] }, ext: { extension: 'gone' }, one: { handler: 'missing' } },
    handlers: { mail: { type: 'pipe', filter: 'f1', mutator: 'm1' }, set: { type: 'set', handlers: ['mail', 'ghost'] } },
    client: { name: 'web', keepalive: { handlers: ['pager'] } },
  };
  const handler = (name: string) => `is not defined (legacy logs "unknown handler" and skips it)`.replace(/^/, `handler ${JSON.stringify(name)} `);
  assert.deepEqual(lintConfiguration(merged, []), [
    { segments: ['checks', 'disk', 'handlers', '1'], message: `check disk: ${handler('nope')}` },
    {
      segments: ['checks', 'ext', 'extension'],
      message: 'check ext: extension "gone" is not defined under extensions (legacy logs "unknown check extension" and publishes no result)',
    },
    { segments: ['checks', 'one', 'handler'], message: `check one: ${handler('missing')}` },
    {
      segments: ['handlers', 'mail', 'filter'],
      message: 'handler mail: filter "f1" is not defined (legacy logs "unknown filter" and does not filter the event)',
    },
    {
      segments: ['handlers', 'mail', 'mutator'],
      message: 'handler mail: mutator "m1" is not defined (legacy logs "unknown mutator" and does not run the handler)',
    },
    { segments: ['handlers', 'set', 'handlers', '1'], message: `handler set set: ${handler('ghost')}` },
    { segments: ['client', 'keepalive', 'handlers', '0'], message: `client keepalive: ${handler('pager')}` },
  ]);
});

test('an extension defines the name it is given, for a handler as for a check', () => {
  const merged = { extensions: { mailer: {}, probe: {} }, checks: { disk: { handlers: ['mailer'] }, ext: { extension: 'probe' } } };
  assert.deepEqual(lintConfiguration(merged, []), []);
});

test('handler sets that contain themselves are named, once each, with the loop', () => {
  const merged = { handlers: { s1: { type: 'set', handlers: ['s2'] }, s2: { type: 'set', handlers: ['s1'] } } };
  assert.deepEqual(lintConfiguration(merged, []), [
    { segments: ['handlers', 's1', 'handlers'], message: 'handler set loop: s1 -> s2 -> s1, from handler set s1 (legacy skips s1)' },
    { segments: ['handlers', 's2', 'handlers'], message: 'handler set loop: s2 -> s1 -> s2, from handler set s2 (legacy skips s2)' },
  ]);
});

test('a token without a default is named only when no client running the check can fill it; proxy checks are left out', () => {
  const clients = [
    { name: 'a', subscriptions: ['linux'], disk: { warning: 80 } },
    { name: 'b', subscriptions: ['linux'], disk: { warning: 70, critical: 90 } },
    { name: 'c', subscriptions: ['windows'] },
  ];
  const merged = {
    checks: {
      disk: { command: 'check :::disk.warning::: :::disk.critical::: :::nowhere::: :::disk::: :::x|1:::', subscribers: ['linux'] },
      everywhere: { command: ':::only_c:::', standalone: true },
      proxy: { command: ':::nowhere:::', subscribers: ['linux'], proxy_requests: { client_attributes: { a: 1 } } },
      unrun: { command: ':::nowhere:::', subscribers: ['solaris'] },
    },
  };
  assert.deepEqual(lintConfiguration(merged, clients), [
    {
      segments: ['checks', 'disk'],
      message:
        'check disk: token(s) :::nowhere:::, :::disk::: name nothing, or an object, in client a, b and have no default: there it would not run ("Unmatched client token(s)", status 3)',
    },
    {
      segments: ['checks', 'everywhere'],
      message:
        'check everywhere: token(s) :::only_c::: name nothing, or an object, in client a, b, c and have no default: there it would not run ("Unmatched client token(s)", status 3)',
    },
  ]);
});
