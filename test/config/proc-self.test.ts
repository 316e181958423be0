// A credential read at start is blanked where other users would read it: /proc/PID/environ and /proc/PID/cmdline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const module = fileURLToPath(new URL('../../src/config/proc-self.js', import.meta.url));

// A process that blanks its own start environment and arguments, says how many, then waits to be read.
const CHILD = `
const { blankStartEnvironment, blankArguments } = await import(${JSON.stringify(module)});
// As the daemon does: the credential leaves process.env first (process.env reads the same memory).
delete process.env.CB_TEST_PASSWORD;
const env = blankStartEnvironment((name) => name === 'CB_TEST_PASSWORD' || name === 'CB_TEST_EMPTY');
const args = blankArguments(['s3cr3t-arg', '']);
console.log(JSON.stringify({ env, args }));
process.stdin.resume();
`;

test(
  'the named variables and the secret arguments are overwritten with x, everything else left as it was',
  { skip: process.platform !== 'linux' },
  async (t) => {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', CHILD, 'plain', 's3cr3t-arg', '--token=s3cr3t-arg', '-x=s3cr3t-arg-not', 'xs3cr3t-arg'],
      {
        env: { PATH: process.env.PATH, CB_TEST_PASSWORD: 'hunter2', CB_TEST_PASSWORD_NOT: 'kept', CB_TEST_EMPTY: '' },
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    t.after(() => child.kill());
    const [line] = (await once(child.stdout, 'data')) as [Buffer];
    assert.deepEqual(JSON.parse(line.toString()), { env: 1, args: 2 }, 'one variable, two arguments');
    const environ = readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0');
    assert.ok(environ.includes('CB_TEST_PASSWORD=xxxxxxx'), environ.join(' '));
    assert.ok(environ.includes('CB_TEST_PASSWORD_NOT=kept'));
    assert.ok(environ.includes('CB_TEST_EMPTY='));
    const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
    assert.deepEqual(cmdline.slice(-6, -1), ['plain', 'xxxxxxxxxx', '--token=xxxxxxxxxx', '-x=s3cr3t-arg-not', 'xs3cr3t-arg']);
  },
);

test('nothing to blank writes nothing', { skip: process.platform !== 'linux' }, async () => {
  const { blankArguments, blankStartEnvironment } = await import('../../src/config/proc-self.js');
  assert.equal(blankArguments([]), 0);
  assert.equal(blankArguments(['never-an-argument-of-this-process']), 0);
  assert.equal(
    blankStartEnvironment(() => false),
    0,
  );
});
