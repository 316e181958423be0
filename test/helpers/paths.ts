import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// dist/test/helpers -> package root
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const BIN = join(ROOT, 'bin', 'checkbridge');
export const SHARED = resolve(ROOT, '..', 'shared');
export const CORPUS = join(SHARED, 'corpus', 'real');

/** Tests that read ../shared skip, saying so, where it is absent (a user's machine). */
export function sharedSkipReason(path: string = CORPUS): string | false {
  return existsSync(path) ? false : `../shared is absent (${path}); it exists beside the project only in CI and development`;
}
