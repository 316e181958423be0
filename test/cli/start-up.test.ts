import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCli } from '../helpers/cli.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { ROOT } from '../helpers/paths.js';
import { validatorsModuleSource, GENERATED_HEADER } from '../../src/config/schema-compile.js';

// Runs the binary with a module hook that logs every module it resolves.
function modulesLoadedBy(args: string[]): { code: number | null; stdout: string; modules: string[] } {
  const dir = makeTree({});
  try {
    const log = join(dir, 'loaded.txt');
    writeFileSync(log, '');
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
  return resolved;
}\n`,
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`,
    );
    mkdirSync(join(dir, 'conf.d'));
    const result = runCli(
      args.map((a) => a.replace('{conf.d}', join(dir, 'conf.d'))),
      { env: { NODE_OPTIONS: `--import ${pathToFileURL(join(dir, 'register.mjs')).href}` } },
    );
    return { code: result.code, stdout: result.stdout, modules: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
  } finally {
    removeTree(dir);
  }
}

// What npm run build bundled for validate (scripts/build-cli.mjs): dist modules and packages, by path.
function bundled(): { modules: string[]; packages: string[] } {
  return JSON.parse(readFileSync(join(ROOT, 'dist', 'src', 'cli', 'validate.bundle.cjs.json'), 'utf8'));
}

test('validate loads only its own modules: no ajv compiler, servers, stores or other commands', () => {
  const { code, stdout, modules } = modulesLoadedBy(['validate', '-d', '{conf.d}']);
  assert.equal(code, 0);
  assert.match(stdout, /configuration is valid/);
  const { modules: inBundle, packages } = bundled();
  const held = [...modules, ...inBundle.map((m) => `/dist/${m}`), ...packages.map((p) => `/${p}`)];
  assert.ok(
    held.some((m) => m.endsWith('/dist/src/cli/validate.js')),
    'the command is in the bundle or the hook saw it',
  );
  for (const unused of [
    '/node_modules/ajv/dist/2020.js',
    '/node_modules/fastify/',
    '/node_modules/better-sqlite3/',
    '/node_modules/chokidar/',
    '/node_modules/pg/',
    '/dist/src/cli/run.js',
    '/dist/src/cli/create.js',
    '/dist/src/intake/',
    '/dist/src/handling/',
    '/dist/src/keepalives/',
    '/dist/src/fleet/',
    '/dist/src/scheduling/',
    '/dist/src/api/',
  ]) {
    assert.ok(!held.some((m) => m.includes(unused)), `validate loaded ${unused}`);
  }
});

test('validate runs from the one bundled file with its code cache: no ES module of dist is loaded', () => {
  const { code, stdout, modules } = modulesLoadedBy(['validate', '-d', '{conf.d}']);
  assert.equal(code, 0);
  assert.match(stdout, /configuration is valid/);
  assert.deepEqual(
    modules.filter((m) => m.includes('/dist/') || m.includes('/node_modules/')),
    [],
    'validate loaded modules past the bundle: is dist stale? run npm run build',
  );
  assert.ok(existsSync(join(ROOT, 'dist', 'src', 'cli', 'validate.bundle.cjs.cache')), 'the build wrote the code cache');
});

test('validate falls back to the modules once one in the bundle was rebuilt, and says the same', () => {
  const fromBundle = modulesLoadedBy(['validate', '--json', '-d', '{conf.d}']);
  const rebuilt = join(ROOT, 'dist', 'src', 'config', 'load.js');
  const { atime, mtime } = statSync(rebuilt);
  utimesSync(rebuilt, atime, new Date(Date.now() + 60_000));
  try {
    const fromModules = modulesLoadedBy(['validate', '--json', '-d', '{conf.d}']);
    assert.ok(
      fromModules.modules.some((m) => m.endsWith('/dist/src/config/load.js')),
      'a rebuilt module is run as it is now',
    );
    assert.equal(fromModules.code, fromBundle.code);
    const anyDir = (report: string) => report.replace(/"dir": "[^"]*"/, '"dir": ""');
    assert.equal(anyDir(fromModules.stdout), anyDir(fromBundle.stdout));
  } finally {
    utimesSync(rebuilt, atime, mtime);
  }
});

test('help still lists every command though each loads only when it runs', () => {
  const { code, stdout } = modulesLoadedBy(['--help']);
  assert.equal(code, 0);
  for (const command of [
    'run',
    'exec',
    'schedule',
    'validate',
    'print-config',
    'render',
    'api-key',
    'compile',
    'create',
    'dump',
    'version',
    'upgrade',
    'login',
  ]) {
    assert.match(stdout, new RegExp(`^  ${command} `, 'm'), command);
  }
});

test('the command is found past global options and legacy flags', () => {
  assert.match(runCli(['--url', 'http://127.0.0.1:1', 'version']).stdout, /^checkbridge version /);
  const { code, stdout } = modulesLoadedBy(['-d', '{conf.d}', '--validate_config']);
  assert.equal(code, 0);
  assert.match(stdout, /configuration is valid/);
});

test('the generated standalone validators in dist match schemas/ as they are now', () => {
  const generated = readFileSync(join(ROOT, 'dist', 'src', 'config', 'schema-validators.js'), 'utf8');
  assert.ok(generated.startsWith(GENERATED_HEADER));
  assert.equal(generated, validatorsModuleSource(), 'dist/src/config/schema-validators.js is stale: run npm run build');
});
