// Real tar.gz archives for asset tests, built from a file list with the `tar` package.
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { c as createTar, Header } from 'tar';

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

export interface CraftedEntry {
  readonly path: string;
  readonly type: 'File' | 'Directory' | 'SymbolicLink' | 'Link';
  readonly linkpath?: string;
  readonly content?: string;
}

/** A tar.gz of exactly these entries in this order, written header by header: archives no file system could produce (links through links). */
export function craftedTarGz(entries: readonly CraftedEntry[]): Buffer {
  const blocks = entries.flatMap((entry) => {
    const content = Buffer.from(entry.type === 'File' ? (entry.content ?? '') : '');
    const header = Buffer.alloc(512);
    const mode = entry.type === 'Directory' || /(^|\/)bin\//.test(entry.path) ? 0o755 : 0o644;
    new Header({ path: entry.path, type: entry.type, linkpath: entry.linkpath ?? '', size: content.length, mode, mtime: new Date(0), uid: 0, gid: 0 }).encode(
      header,
      0,
    );
    const body = Buffer.alloc(Math.ceil(content.length / 512) * 512);
    content.copy(body);
    return [header, body];
  });
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}
