// Comments say facts in the code's own words or point at a file of the repository, never at a document it lacks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './helpers/paths.js';

// Anywhere in a file: the decisions list and numbered sections of documents outside the repository.
const ANYWHERE = [/\bDECISIONS\b/, /\u00a7/];
// In comments only: issue numbers, appendices and numbered parts of a specification (bench reports may still name them).
const IN_COMMENTS = [/\b[Ii]ssue \d/, /\bAppendix [A-Z]\b/, /\b[Ss]pec \d/];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Line and block comments; a `//` after a colon is a URL, not a comment. */
function comments(text: string): string[] {
  const blocks = [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => m[0]);
  const lines = [...text.matchAll(/(?<![:\\])\/\/[^\n]*/g)].map((m) => m[0]);
  return [...blocks, ...lines];
}

/** Each citation of an outside document in `text`, as `where: the cited words`. */
export function citations(text: string, where: string): string[] {
  const hits: string[] = [];
  for (const line of text.split('\n')) for (const re of ANYWHERE) if (re.test(line)) hits.push(`${where}: ${line.trim()}`);
  for (const comment of comments(text)) for (const re of IN_COMMENTS) if (re.test(comment)) hits.push(`${where}: ${comment.trim()}`);
  return hits;
}

test('no comment in src/ or test/ cites a document the repository does not have', () => {
  // This file plants citations to show the check bites, so it is the one file left out.
  const files = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'test'))].filter(
    (file) => relative(ROOT, file) !== join('test', 'comments.test.ts'),
  );
  assert.ok(files.length > 100, `found ${files.length} files`);
  const hits = files.flatMap((file) => citations(readFileSync(file, 'utf8'), relative(ROOT, file)));
  assert.deepEqual(hits, []);
});

test('the check bites: each kind of citation is found, in a line comment, a block comment or anywhere', () => {
  const planted = [
    '// Legacy wraps a negative status (DECISIONS 9).',
    '/** The silence registry (reference \u00a712.9). */',
    'const x = 1; // as spec \u00a73 says',
    '/* Issue 27 item 7: handlers share slots. */',
    '// vectors of Appendix A.2',
    '// the PostgresConfig resource (spec 2.5)',
    "test('keeps UTF-8 (DECISIONS 1)', () => {});",
  ];
  for (const line of planted) assert.equal(citations(line, 'x').length, 1, line);
  assert.deepEqual(citations("report({ legacy_measured: 'figure from issue 21' }); // see https://example.com/a", 'x'), []);
});
