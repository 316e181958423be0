import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers/paths.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

// Made at build or run time, never committed: named by the README, absent from a clean checkout.
const GENERATED = [/^\.?\/?state\//, /^dist\//, /^test-artifacts\//, /^node_modules\//];
const FILE_LIKE = /\.(md|json|ts|js|cjs|mjs|sh|service|ya?ml|png|txt|db)$/;
// A path's first segment that names the repository's own tree (the Layering section names files relative to src/).
const TOP = new Set([...readdirSync(ROOT), ...readdirSync(join(ROOT, 'src'))].filter((name) => name !== 'node_modules' && name !== 'dist'));

/** Relative paths the README points at: link targets, documents, and backticked paths into the tree or to a file. */
function referencedPaths(text: string): string[] {
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'));
  const quoted = [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!)
    .filter((word) => !/^[a-z0-9+]+:\/\//i.test(word) && !word.startsWith('/') && !word.startsWith('-') && !/[:<>…*{}$|=,]/.test(word))
    .filter((word) => word.endsWith('.md') || (word.includes('/') && (FILE_LIKE.test(word) || TOP.has(word.replace(/^\.\//, '').split('/')[0]!))));
  return [...new Set([...links, ...quoted])].filter((path) => !GENERATED.some((re) => re.test(path)));
}

const inRepository = (path: string) => [ROOT, join(ROOT, 'src')].some((base) => existsSync(join(base, path)));

test('the README names no file that is not in the repository', () => {
  const paths = referencedPaths(README);
  assert.ok(paths.includes('scripts/install-test-servers.sh'), 'the check finds backticked paths');
  assert.ok(paths.includes('docs/dashboard-events.png'), 'the check finds link targets');
  const missing = paths.filter((path) => !inRepository(path));
  assert.deepEqual(missing, []);
});

test('the README points at no document outside the repository', () => {
  for (const outside of [/\bDECISIONS\b/, /\bthe specification\b/i, /\bspec \u00a7/, /\.\.\/shared\b/, /\breference\/[\w-]+\.md\b/]) {
    assert.doesNotMatch(README, outside);
  }
});

test('the LICENSE file is the license package.json declares', () => {
  const declared = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).license;
  assert.equal(declared, 'MIT');
  assert.match(readFileSync(join(ROOT, 'LICENSE'), 'utf8'), /^MIT License\n/);
});
