import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { makeTree, removeTree } from '../helpers/tree.js';

// Rules legacy loaded without a word: a ttl that does not exceed the interval, a hook keyed "0".
const files = {
  'conf.d/client.json': { client: { name: 'c', address: '127.0.0.1', subscriptions: ['all'] } },
  'conf.d/checks.json':
    '{\n  "checks": {\n    "equal": { "command": "true", "interval": 60, "ttl": 60, "subscribers": ["all"] },\n' +
    '    "longer": { "command": "true", "interval": 60, "ttl": 90, "subscribers": ["all"] },\n' +
    '    "cron": { "command": "true", "cron": "* * * * *", "interval": 60, "ttl": 30, "subscribers": ["all"] },\n' +
    '    "zero": { "command": "true", "interval": 60, "subscribers": ["all"], "hooks": { "0": { "command": "true" }, "1": { "command": "true" } } }\n  }\n}\n',
};

test('validate warns, naming the check and where, about a ttl within the interval and a hook keyed "0"; both still load (exit 0)', (t) => {
  const root = makeTree(files);
  t.after(() => removeTree(root));
  const checks = join(root, 'conf.d', 'checks.json');
  const result = runCli(['validate', join(root, 'conf.d')]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(
    result.stderr.split('\n').filter((l) => l.startsWith('warning: ')),
    [
      `warning: ${checks}:3:51 /checks/equal/ttl: check ttl 60 is not greater than its interval 60 (Sensu Go refuses it: "ttl must be greater than check interval"): the result is stale before the next run, so a TTL event follows every run`,
      `warning: ${checks}:6:85 /checks/zero/hooks/0: check hook key "0": the specification names status hooks 1 to 255; "0" runs for status 0, before "ok", as legacy did: name it "ok"`,
    ],
  );
});
