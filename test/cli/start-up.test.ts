import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
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

test('validate loads only its own modules: no ajv compiler, servers, stores or other commands', () => {
  const { code, stdout, modules } = modulesLoadedBy(['validate', '-d', '{conf.d}']);
  assert.equal(code, 0);
  assert.match(stdout, /configuration is valid/);
  assert.ok(
    modules.some((m) => m.endsWith('/dist/src/cli/validate.js')),
    'the hook saw the command',
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
    assert.ok(!modules.some((m) => m.includes(unused)), `validate loaded ${unused}`);
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
