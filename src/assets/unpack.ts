// Unpacks a verified archive (tar, tar.gz) into a directory; any entry that would land outside it refuses the whole archive.
import { open } from 'node:fs/promises';
import { posix } from 'node:path';
import { list, extract, type ReadEntry } from 'tar';

const ALLOWED_TYPES = new Set(['File', 'OldFile', 'ContigFile', 'Directory', 'SymbolicLink', 'Link']);

/** Inside the archive root: relative, and no `..` that climbs above it. */
function staysInside(path: string): boolean {
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return false;
  const normal = posix.normalize(path);
  return normal !== '..' && !normal.startsWith('../');
}

/** Why this entry would escape the target, or null. */
export function entryProblem(entry: Pick<ReadEntry, 'path' | 'type' | 'linkpath'>): string | null {
  if (!ALLOWED_TYPES.has(entry.type)) return `${entry.path}: ${entry.type} entries are not allowed`;
  if (!staysInside(entry.path)) return `${entry.path}: path escapes the asset directory`;
  const link = entry.linkpath ?? '';
  // A symbolic link resolves from its own directory; a hard link names another entry from the archive root.
  if (entry.type === 'SymbolicLink' && (link.startsWith('/') || !staysInside(posix.join(posix.dirname(entry.path), link)))) return `${entry.path}: link to ${link} points outside the asset directory`;
  if (entry.type === 'Link' && !staysInside(link)) return `${entry.path}: link to ${link} points outside the asset directory`;
  return null;
}

async function magic(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4), 0, 4, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Lists every entry first (refusing the archive on the first escape), then extracts into `target`. */
export async function unpack(file: string, target: string): Promise<void> {
  const head = await magic(file);
  if (head[0] === 0x50 && head[1] === 0x4b) throw new Error('zip archives are not supported: use tar or tar.gz');
  let problem: string | null = null;
  await list({ file, strict: true, onReadEntry: (entry) => void (problem ??= entryProblem(entry)) });
  if (problem) throw new Error(`archive refused: ${problem}`);
  await extract({ file, cwd: target, strict: true, preserveOwner: false });
}
