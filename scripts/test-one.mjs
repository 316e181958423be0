// Runs the named test files (test/**/*.test.ts or their dist/ .js, and node --test options) from dist/, compiling
// first with incremental tsc only when a source is newer than the last compile, so a warm run starts at once.
// A source module (src/a/b.ts) names the test beside it (test/a/b.test.ts); when there is none, it says so.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { exemption, testBeside } from './tests-beside.mjs';

const BUILD_INFO = 'dist/tsconfig.tsbuildinfo';
const args = process.argv.slice(2);
// Options such as --test-name-pattern=... pass through to node --test.
const options = args.filter((arg) => arg.startsWith('-'));
const named = args.filter((arg) => !arg.startsWith('-')).map((file) => testBeside(file) ?? file);
const files = named.map((file) => file.replace(/^(\.\/)?(dist\/)?/, 'dist/').replace(/\.ts$/, '.js'));

/** The newest modification under `path`: files and directories both, as a deleted file changes its directory. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

if (files.length === 0) fail('usage: npm run test:one -- test/path/file.test.ts|src/path/module.ts [more] [--test-name-pattern=...]');
const untested = args.filter((arg) => testBeside(arg) && !existsSync(testBeside(arg)));
if (untested.length > 0) fail(untested.map(noTestBeside).join('\n'));
// Only the full build writes the web bundle and the schema validators the daemon loads.
if (!existsSync('dist/src/config/schema-validators.js')) fail('dist/ is not built: run `npm run build` once first');
// The Sensu Go types' generated modules follow their table, as the build writes them.
const typeTable = ['schemas/sensu-go-types.txt', 'scripts/build-types.mjs'];
if (typeTable.every(existsSync) && typeTable.some((path) => newest(path) > statSync('src/v2/generated/fields.ts').mtimeMs)) {
  const generate = spawnSync(process.execPath, ['scripts/build-types.mjs'], { stdio: 'inherit' });
  if (generate.status !== 0) process.exit(generate.status ?? 1);
}
if (!existsSync(BUILD_INFO) || ['src', 'test', 'tsconfig.json'].some((path) => newest(path) > statSync(BUILD_INFO).mtimeMs)) {
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  // tsc leaves its build info untouched when a saved file did not change; mark this compile as the newest anyway.
  const now = new Date();
  utimesSync(BUILD_INFO, now, now);
}
const missing = files.filter((file) => !existsSync(file));
if (missing.length > 0) fail(`no such test: ${missing.join(', ')}`);
process.exit(spawnSync(process.execPath, ['--test', ...options, ...files], { stdio: 'inherit' }).status ?? 1);

/** Says that `source` has no test beside it, why it needs none if it is exempt, and which tests import it. */
function noTestBeside(source) {
  const module = source.replace(/^\.\//, '');
  if (!existsSync(module)) return `no such module: ${source}`;
  const reason = exemption(module, readFileSync(module, 'utf8'));
  const imported = `/${module.slice('src/'.length).replace(/\.ts$/, '.js')}'`;
  const importers = testSources('test').filter((test) => readFileSync(test, 'utf8').includes(imported));
  return [
    `no test beside ${module}: ${testBeside(module)} does not exist${reason ? ` (none needed: ${reason})` : ''}`,
    ...(importers.length > 0 ? ['tests that import it:', ...importers.map((test) => `  ${test}`)] : []),
  ].join('\n');
}

function testSources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? testSources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

function fail(message) {
  console.error(message);
  process.exit(2);
}
