// Every relative link of the documentation resolves: the file it names exists, and so does the heading its #anchor names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { ROOT } from '../helpers/paths.js';
import { DOC_PAGES, anchorsOf, readPage, relativeLinks } from './pages.js';

/** What is wrong with one link of a page, or undefined when it resolves. */
function brokenLink(page: string, target: string): string | undefined {
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? page : relative(ROOT, normalize(join(ROOT, dirname(page), path)));
  if (file.startsWith('..') || !existsSync(join(ROOT, file))) return `${page}: ${target} (no file ${file})`;
  if (anchor === undefined) return undefined;
  if (!file.endsWith('.md')) return `${page}: ${target} (an anchor in a file that is not Markdown)`;
  return anchorsOf(readPage(file)).has(anchor) ? undefined : `${page}: ${target} (no heading ${file}#${anchor})`;
}

test('the anchors are GitHub’s: code marks and punctuation dropped, spaces as dashes, repeated headings numbered', () => {
  const anchors = anchorsOf('# Migrating: `compile`, then `create -f`\n## On a Sensu 1.x host\n```sh\n# not a heading\n```\n## Logs\n## Logs\n');
  assert.deepEqual([...anchors], ['migrating-compile-then-create--f', 'on-a-sensu-1x-host', 'logs', 'logs-1']);
});

test('the check finds links, images and same-page anchors, and skips addresses and code blocks', () => {
  const links = relativeLinks('[a](docs/x.md#y) ![b](docs/p.png) [c](#z) [d](https://example.com/)\n```\n[e](nowhere.md)\n```\n');
  assert.deepEqual(links, ['docs/x.md#y', 'docs/p.png', '#z']);
  assert.match(brokenLink('README.md', 'docs/nowhere.md') ?? '', /no file docs\/nowhere\.md/);
  assert.match(brokenLink('README.md', '#no-such-heading') ?? '', /no heading README\.md#no-such-heading/);
  assert.equal(brokenLink('docs/legacy.md', '../README.md#two-commands'), undefined);
});

test('every relative link in README.md and docs/*.md resolves to an existing file and heading', () => {
  const links = DOC_PAGES.flatMap((page) => relativeLinks(readPage(page)).map((target) => ({ page, target })));
  assert.ok(links.length > 50, `the pages link one another (${links.length} links found)`);
  assert.deepEqual(
    links.map(({ page, target }) => brokenLink(page, target)).filter((problem) => problem !== undefined),
    [],
  );
});
