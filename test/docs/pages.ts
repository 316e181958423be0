// The documentation as the tests read it: the README (the front door) and every page under docs/, by reader.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/paths.js';

/** Every page, as a path from the repository's root: the README first, then docs/*.md by name. */
export const DOC_PAGES: readonly string[] = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/**
 * Documents kept as they were written beside the pages by reader: their links are checked, but they are not held to the
 * pages' rules on naming files (the plan names files from src/store/; the differences table names API groups such as
 * `secrets/v1` and where the real backend is found for the tests).
 */
export const KEPT_AS_WRITTEN: ReadonlySet<string> = new Set(['docs/async-postgres-store.md', 'docs/sensu-go-differences.md']);

/** The README and the pages by reader: what each says about the repository is held by test/readme.test.ts. */
export const READER_PAGES: readonly string[] = DOC_PAGES.filter((page) => !KEPT_AS_WRITTEN.has(page));

export function readPage(page: string): string {
  return readFileSync(join(ROOT, page), 'utf8');
}

/** The page's lines outside fenced code blocks (a `#` there is a shell comment, not a heading). */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return !fenced && !line.startsWith('```');
  });
}

/** The anchors GitHub gives a page's headings: lower case, code marks and punctuation dropped, spaces as `-`, repeats numbered. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6} (.+?)#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The targets of a page's Markdown links and images that stay in the repository (no scheme): `file`, `file#anchor`, `#anchor`. */
export function relativeLinks(text: string): string[] {
  return proseLines(text)
    .flatMap((line) => [...line.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!))
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}
