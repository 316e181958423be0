import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './helpers/paths.js';
import { DOC_PAGES, READER_PAGES, readPage, relativeLinks } from './docs/pages.js';

const README = readPage('README.md');

// Made at build or run time, never committed: named by the pages, absent from a clean checkout.
const GENERATED = [/^\.?\/?state\//, /^dist\//, /^test-artifacts\//, /^node_modules\//];
const FILE_LIKE = /\.(md|json|ts|js|cjs|mjs|sh|service|ya?ml|png|txt|db)$/;
// A path's first segment that names the repository's own tree (the Layering section names files relative to src/).
const TOP = new Set([...readdirSync(ROOT), ...readdirSync(join(ROOT, 'src'))].filter((name) => name !== 'node_modules' && name !== 'dist'));

/** Relative paths a page points at: link targets (without their #anchor), documents, and backticked paths into the tree or to a file. */
function referencedPaths(text: string): string[] {
  const links = relativeLinks(text)
    .map((target) => target.split('#')[0]!)
    .filter((path) => path !== '');
  const quoted = [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!)
    .filter((word) => !/^[a-z0-9+]+:\/\//i.test(word) && !word.startsWith('/') && !word.startsWith('-') && !/[:<>…*{}$|=,]/.test(word))
    .filter((word) => word.endsWith('.md') || (word.includes('/') && (FILE_LIKE.test(word) || TOP.has(word.replace(/^\.\//, '').split('/')[0]!))));
  return [...new Set([...links, ...quoted])].filter((path) => !GENERATED.some((re) => re.test(path)));
}

/** A page names paths from the repository's root, from src/ (the layering), or from its own folder (its links). */
const inRepository = (page: string, path: string) => [ROOT, join(ROOT, 'src'), join(ROOT, dirname(page))].some((base) => existsSync(join(base, path)));

test('no page (the README, docs/*.md) names a file that is not in the repository', () => {
  const paths = referencedPaths(README);
  assert.ok(paths.includes('scripts/install-test-servers.sh'), 'the check finds backticked paths');
  assert.ok(paths.includes('docs/dashboard-events.png'), 'the check finds link targets');
  assert.ok(referencedPaths(readPage('docs/legacy.md')).includes('../README.md'), "the check finds a page's links from its own folder");
  const missing = READER_PAGES.flatMap((page) => referencedPaths(readPage(page)).flatMap((path) => (inRepository(page, path) ? [] : [`${page}: ${path}`])));
  assert.deepEqual(missing, []);
});

test('no page points at a document outside the repository', () => {
  const outside = [/\bDECISIONS\b/, /\bthe specification\b/i, /\bspec \u00a7/, /\.\.\/shared\b/, /\breference\/[\w-]+\.md\b/];
  const found = READER_PAGES.flatMap((page) => outside.flatMap((re) => (re.exec(readPage(page)) ?? []).map((hit) => `${page}: ${hit}`)));
  assert.deepEqual(found, []);
});

test('the README is the front door: under 250 lines, and its map links every page under docs/', () => {
  assert.ok(README.split('\n').length < 250, `the README has ${README.split('\n').length} lines`);
  const linked = new Set(relativeLinks(README).map((target) => target.split('#')[0]));
  assert.deepEqual(
    DOC_PAGES.filter((page) => page !== 'README.md' && !linked.has(page)),
    [],
  );
});

test("the README's two commands are the ones that run: npm start's daemon, and the test command CI runs", () => {
  const block = /## Two commands\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(README)![1]!;
  const [start, tests] = block
    .trim()
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, ''));
  assert.equal(start, 'npm ci && npm start');
  assert.equal(tests, 'sh scripts/install-test-servers.sh && npm ci && npm test');
  // `npm start` runs what the README says it runs.
  const daemon = /`npm start` runs `checkbridge ([^`]+)`/.exec(README)![1]!;
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
  assert.equal(scripts.start, `npm run build && node bin/checkbridge ${daemon}`);
  // CI runs the second command (npm ci quieter).
  const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8')
    .trim()
    .split('\n')
    .at(-1)!;
  assert.equal(ci.replace(/npm ci( --[\w-]+)*/, 'npm ci'), tests);
});

test('the LICENSE file is the license package.json declares', () => {
  const declared = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).license;
  assert.equal(declared, 'MIT');
  assert.match(readFileSync(join(ROOT, 'LICENSE'), 'utf8'), /^MIT License\n/);
});
