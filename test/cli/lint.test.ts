import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { makeTree, removeTree } from '../helpers/tree.js';

// The example (a handler nobody defines, a set that contains itself, :::disk::: naming an object) and more.
const LINTED = {
  'conf.d/client.json': { client: { name: 'web-1', subscriptions: ['web'], disk: { warning: 80 }, keepalive: { handler: 'pager' } } },
  'conf.d/checks.json': {
    checks: {
      disk: { command: 'check-disk -w :::disk:::', subscribers: ['web'], interval: 60, handlers: ['nosuch', 'loop'] },
      ext: { extension: 'nothere', standalone: true, interval: 60 },
    },
  },
  'conf.d/handlers.json': {
    handlers: {
      loop: { type: 'set', handlers: ['loop', 'mail'] },
      mail: { type: 'pipe', command: 'cat', filters: ['occurrences', 'nofilter'], mutator: 'nomut' },
    },
  },
};

// Legacy's built-ins and implicit names, tokens with defaults or filled, and checks for clients defined elsewhere: no warning.
const CLEAN = {
  'conf.d/client.json': { client: { name: 'web-1', subscriptions: ['web'], disk: { warning: 80 } } },
  'conf.d/checks.json': {
    checks: {
      disk: {
        command: 'check-disk -w :::disk.warning::: -c :::disk.critical|90:::',
        subscribers: ['web'],
        interval: 60,
        handlers: ['default', 'debug', 'keepalive', 'team'],
      },
      mysql: { command: 'check-mysql -p :::mysql.port:::', subscribers: ['db'], interval: 60 },
      plain: { command: 'true', subscribers: ['web'], interval: 60 },
      proxy: { command: 'ping :::address:::', subscribers: ['web'], interval: 60, proxy_requests: { client_attributes: { keepalives: false } } },
      influx: { command: 'true', standalone: true, interval: 60, handler: 'influxdb' },
    },
  },
  'conf.d/handlers.json': {
    handlers: {
      team: { type: 'set', handlers: ['mail', 'deregistration'] },
      mail: { type: 'pipe', command: 'cat', filters: ['occurrences', 'check_dependencies', 'recurrences'], mutator: 'only_check_output' },
      raw: { type: 'pipe', command: 'cat', mutator: 'json' },
    },
    filters: { recurrences: { attributes: { occurrences: 'eval: value == 1' } } },
    extensions: { influxdb: { gem: 'sensu-extensions-influxdb' } },
  },
};

const EXPECTED = [
  ['/checks/disk/handlers/0', /check disk: handler "nosuch" is not defined \(legacy logs "unknown handler" and skips it\)/],
  ['/checks/ext/extension', /check ext: extension "nothere" is not defined under extensions/],
  ['/handlers/mail/filters/1', /handler mail: filter "nofilter" is not defined \(legacy logs "unknown filter" and does not filter the event\)/],
  ['/handlers/mail/mutator', /handler mail: mutator "nomut" is not defined \(legacy logs "unknown mutator" and does not run the handler\)/],
  ['/client/keepalive/handler', /client keepalive: handler "pager" is not defined/],
  ['/handlers/loop/handlers', /handler set loop: loop -> loop, from handler set loop/],
  ['/checks/disk', /check disk: token\(s\) :::disk::: name nothing, or an object, in client web-1 and have no default/],
] as const;

test('validate warns, located, on undefined references, handler set loops and unfillable tokens; the verdict stays valid', (t) => {
  const root = makeTree(LINTED);
  t.after(() => removeTree(root));
  const text = runCli(['validate', join(root, 'conf.d')]);
  assert.equal(text.code, 0, text.stderr);
  assert.equal(text.stdout, 'configuration is valid\n');
  // Past the line that names what was read (every command that loads configuration says it).
  const warnings = text.stderr
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('warning: '));
  assert.equal(warnings.length, EXPECTED.length, text.stderr);
  for (const [path, message] of EXPECTED) {
    const line = warnings.find((w) => w.includes(` ${path}: `));
    assert.ok(line, `a warning at ${path}: ${text.stderr}`);
    assert.match(line, /^warning: \/.*conf\.d\/\w+\.json:\d+:\d+ /);
    assert.match(line, message);
  }
  const json = JSON.parse(runCli(['validate', '--json', join(root, 'conf.d')]).stdout);
  assert.equal(json.valid, true);
  assert.deepEqual(json.warnings.map((w: { path: string }) => w.path).sort(), EXPECTED.map(([path]) => path).sort());
});

test('validate --strict fails on warnings, and passes a configuration without any', (t) => {
  const root = makeTree({
    ...Object.fromEntries(Object.entries(LINTED).map(([k, v]) => [`linted/${k}`, v])),
    ...Object.fromEntries(Object.entries(CLEAN).map(([k, v]) => [`clean/${k}`, v])),
  });
  t.after(() => removeTree(root));
  const strict = runCli(['validate', '--strict', join(root, 'linted', 'conf.d')]);
  assert.equal(strict.code, 2);
  assert.match(strict.stdout, new RegExp(`--strict: ${EXPECTED.length} warnings\nconfiguration is invalid\n$`));
  assert.equal(JSON.parse(runCli(['validate', '--strict', '--json', join(root, 'linted', 'conf.d')]).stdout).valid, false);
  const clean = runCli(['validate', '--strict', join(root, 'clean', 'conf.d')]);
  assert.equal(clean.stderr.split('\n').filter((line) => line.startsWith('warning')).length, 0, clean.stderr);
  assert.match(clean.stderr, /^checkbridge: configuration read from .*clean\/conf\.d \(\d+ files?\)\n$/);
  assert.equal(clean.code, 0);
});

test('compile reports the same findings, on stderr and in its migration report; --strict fails', (t) => {
  const root = makeTree(LINTED);
  t.after(() => removeTree(root));
  const report = join(root, 'report.json');
  const compiled = runCli(['compile', join(root, 'conf.d'), '--report', report]);
  assert.equal(compiled.code, 0, compiled.stderr);
  const inReport = (JSON.parse(readFileSync(report, 'utf8')).definitions as { warnings: string[] }[]).flatMap((d) => d.warnings);
  // Where the compiler already warned at the same place (the extension, the mutator), its warning stands for both.
  const compilerOwn = ['/checks/ext/extension', '/handlers/mail/mutator'];
  for (const [path, message] of EXPECTED) {
    for (const lines of [inReport, compiled.stderr.split('\n')]) {
      const line = lines.find((l) => l.includes(` ${path}: `));
      assert.ok(line, `a warning at ${path}`);
      if (!compilerOwn.includes(path)) assert.match(line, message);
    }
  }
  assert.equal(runCli(['compile', '--strict', join(root, 'conf.d')]).code, 1);
});
