// Real tar.gz archives for asset tests, built from a file list with the `tar` package.
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { c as createTar } from 'tar';

export const sha512 = (data: Buffer | string) => createHash('sha512').update(data).digest('hex');

/** A tar.gz of `files` (path → content; paths under bin/ are executable); `preservePaths` keeps `../` names as given. */
export async function tarGz(files: Record<string, string>, options: { preservePaths?: boolean } = {}): Promise<Buffer> {
  const base = mkdtempSync(join(tmpdir(), 'checkbridge-archive-'));
  const root = join(base, 'root');
  mkdirSync(root);
  try {
    for (const [path, content] of Object.entries(files)) {
      const full = join(root, path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
      if (path.startsWith('bin/')) chmodSync(full, 0o755);
    }
    const file = join(base, 'archive.tar.gz');
    await createTar({ gzip: true, cwd: root, file, portable: true, preservePaths: options.preservePaths ?? false }, Object.keys(files));
    return readFileSync(file);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
