import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temporary directory holding `files` (path -> text, or object written as JSON). */
export function makeTree(files: Record<string, string | object>): string {
  const root = mkdtempSync(join(tmpdir(), 'checkbridge-test-'));
  writeTree(root, files);
  return root;
}

export function writeTree(root: string, files: Record<string, string | object>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
}

export function removeTree(root: string): void {
  rmSync(root, { recursive: true, force: true });
}
