import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeTree, removeTree, writeTree } from '../helpers/tree.js';
import { startInstance, eventually } from '../helpers/instance.js';

// A handler as the community plugin framework writes one: its settings come from the files $SENSU_LOADED_TEMPFILE names.
const READER = `
const { readFileSync, writeFileSync } = require('node:fs');
const event = JSON.parse(readFileSync(0, 'utf8'));
const tempfile = process.env.SENSU_LOADED_TEMPFILE;
const files = readFileSync(tempfile, 'utf8').split(':');
let mailer = {};
for (const file of files) {
  const settings = JSON.parse(readFileSync(file, 'utf8'));
  if (settings.mailer) mailer = { ...mailer, ...settings.mailer };
}
writeFileSync(process.argv[2], JSON.stringify({ tempfile, files, mailer, output: event.check.output, hooks: event.check.hooks }));
`;

// The handler writes its file while this test polls it: a file not yet whole is read again, as one not there yet.
function readJson(file: string) {
  try {
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
  } catch (error) {
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}

test('SENSU_LOADED_TEMPFILE: checks, hooks, mutators and handlers get it; a handler finds its settings; refreshed on reload; removed on stop', async (t) => {
  const root = makeTree({});
  const out = join(root, 'handler.json');
  const mutated = join(root, 'mutated.txt');
  writeTree(root, {
    'reader.cjs': READER,
    'conf.d/client.json': { client: { name: 'plugins', address: '127.0.0.1', subscriptions: [] } },
    'conf.d/checks.json': {
      checks: {
        envcheck: {
          command: 'echo "check:$SENSU_LOADED_TEMPFILE"; exit 2',
          standalone: true,
          interval: 1,
          hooks: { critical: { command: 'echo "hook:$SENSU_LOADED_TEMPFILE"' } },
          handlers: ['mailer', 'mutated'],
        },
      },
    },
    'conf.d/handlers.json': {
      handlers: {
        mailer: { type: 'pipe', command: `${JSON.stringify(process.execPath)} ${join(root, 'reader.cjs')} ${out}` },
        mutated: { type: 'pipe', command: `cat > ${mutated}`, mutator: 'envmut' },
      },
      mutators: { envmut: { command: 'echo "mutator:$SENSU_LOADED_TEMPFILE"' } },
    },
    'conf.d/mailer.json': { mailer: { mail_from: 'sensu@example.com', smtp_address: 'smtp.example.com' } },
  });
  const { daemon } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });

  const confd = (name: string) => join(root, 'conf.d', name);
  const seen = await eventually(
    async () => readJson(out),
    (v) => v !== null,
    15_000,
  );
  assert.ok(seen, 'the handler ran');
  assert.equal(seen.tempfile, join(root, 'state', 'sensu_checkbridge_loaded_files'), 'in the state directory');
  assert.deepEqual(seen.files, ['checks.json', 'client.json', 'handlers.json', 'mailer.json'].map(confd), 'absolute paths in load order');
  assert.deepEqual(seen.mailer, { mail_from: 'sensu@example.com', smtp_address: 'smtp.example.com' }, 'the handler found its settings');
  assert.equal(seen.output, `check:${seen.tempfile}\n`, 'the check command got the variable');
  assert.equal(seen.hooks.critical.output, `hook:${seen.tempfile}\n`, 'the hook got the variable');
  assert.equal(
    await eventually(
      async () => (existsSync(mutated) ? readFileSync(mutated, 'utf8') : ''),
      (s) => s !== '',
    ),
    `mutator:${seen.tempfile}\n`,
    'the mutator got the variable',
  );
  assert.equal(statSync(seen.tempfile).mode & 0o777, 0o600, 'readable by its owner only');

  // A new file in conf.d: the list is rewritten and the handler's next run sees the new settings.
  writeTree(root, { 'conf.d/zz-mailer-port.json': { mailer: { smtp_port: 2525 } } });
  const refreshed = await eventually(
    async () => readJson(out),
    (v) => v?.files.length === 5,
    15_000,
  );
  assert.deepEqual(refreshed.files, ['checks.json', 'client.json', 'handlers.json', 'mailer.json', 'zz-mailer-port.json'].map(confd));
  assert.deepEqual(refreshed.mailer, { mail_from: 'sensu@example.com', smtp_address: 'smtp.example.com', smtp_port: 2525 });
  assert.equal(readFileSync(seen.tempfile, 'utf8'), refreshed.files.join(':'));

  assert.equal(await daemon.stop('SIGTERM'), 0);
  assert.equal(existsSync(seen.tempfile), false, 'removed on a clean stop');
});
