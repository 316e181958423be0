// Unpacks a verified archive (tar, tar.gz) into a directory; any entry that would land outside it refuses the whole archive.
import { open, readdir, realpath } from 'node:fs/promises';
import { join, posix, sep } from 'node:path';
import { createReadStream } from 'node:fs';
import type { ReadEntry } from 'tar';

// The archive reader loads with the first asset unpacked: a daemon that fetches none never parses it.
let tar: Promise<typeof import('tar')> | undefined;
const loadTar = () => (tar ??= import('tar'));
import { AssetTooLarge, type AssetLimits } from './limits.js';

const ALLOWED_TYPES = new Set(['File', 'OldFile', 'ContigFile', 'Directory', 'SymbolicLink', 'Link']);
// As the kernel's ELOOP: a chain of links longer than this is refused.
const MAX_LINK_HOPS = 40;

type Entry = Pick<ReadEntry, 'path' | 'type' | 'linkpath'>;

/** Inside the archive root: relative, and no `..` that climbs above it. */
function staysInside(path: string): boolean {
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return false;
  const normal = posix.normalize(path);
  return normal !== '..' && !normal.startsWith('../');
}

/** Why this entry would escape the target on its own, or null. */
export function entryProblem(entry: Entry): string | null {
  if (!ALLOWED_TYPES.has(entry.type)) return `${entry.path}: ${entry.type} entries are not allowed`;
  if (!staysInside(entry.path)) return `${entry.path}: path escapes the asset directory`;
  const link = entry.linkpath ?? '';
  // A symbolic link resolves from its own directory; a hard link names another entry from the archive root.
  if (entry.type === 'SymbolicLink' && (link.startsWith('/') || !staysInside(posix.join(posix.dirname(entry.path), link))))
    return `${entry.path}: link to ${link} points outside the asset directory`;
  if (entry.type === 'Link' && !staysInside(link)) return `${entry.path}: link to ${link} points outside the asset directory`;
  return null;
}

/** An entry's path as a key: no `./`, no trailing slash. */
const keyOf = (path: string) =>
  posix
    .normalize(path)
    .replace(/\/+$/, '')
    .replace(/^(\.\/)+/, '');

/**
 * Resolves `path` (relative to the root) as the kernel would in the unpacked tree, following `links` (path → target)
 * at every step: null when any step climbs above the root, a link is absolute, or the chain loops.
 */
export function resolveInTree(path: string, links: ReadonlyMap<string, string>): string | null {
  const resolved: string[] = [];
  const pending = path.split('/');
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (resolved.length === 0) return null;
      resolved.pop();
      continue;
    }
    resolved.push(part);
    const target = links.get(resolved.join('/'));
    if (target === undefined) continue;
    if (target.startsWith('/') || ++hops > MAX_LINK_HOPS) return null;
    // A link's target is read from the link's own directory.
    resolved.pop();
    pending.unshift(...target.split('/'));
  }
  return resolved.join('/');
}

/** The first of `path`'s directories that is a link of the archive, or null: nothing is written through a link. */
function linkOnTheWay(path: string, links: ReadonlyMap<string, string>): string | null {
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  const walked: string[] = [];
  for (const part of parts.slice(0, -1)) {
    if (part === '..') walked.pop();
    else walked.push(part);
    if (links.has(walked.join('/'))) return walked.join('/');
  }
  return null;
}

/** Why the archive's links, taken together, would reach outside the target (a chain such as `a/b -> ..`), or null. */
export function linksProblem(entries: readonly Entry[]): string | null {
  const links = new Map<string, string>();
  for (const entry of entries) if (entry.type === 'SymbolicLink') links.set(keyOf(entry.path), entry.linkpath ?? '');
  for (const entry of entries) {
    const key = keyOf(entry.path);
    const through = linkOnTheWay(entry.path, links);
    if (through !== null) return `${entry.path}: path passes through the symbolic link ${through}`;
    if (entry.type !== 'SymbolicLink' && entry.type !== 'Link') continue;
    const link = entry.linkpath ?? '';
    // A symbolic link resolves from its own directory; a hard link names another entry from the archive root.
    const start = entry.type === 'SymbolicLink' ? `${posix.dirname(key)}/${link}` : link;
    if (resolveInTree(start, links) === null) return `${entry.path}: link to ${link} points outside the asset directory (through the archive's own links)`;
  }
  return null;
}

/** After extraction, every link that resolves at all must resolve inside `target` (the kernel's own answer). */
async function linkEscaping(target: string): Promise<string | null> {
  const root = await realpath(target);
  const walk = async (dir: string): Promise<string | null> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        const real = await realpath(path).catch(() => null);
        if (real !== null && real !== root && !real.startsWith(root + sep)) return path.slice(target.length + 1);
      } else if (entry.isDirectory()) {
        const found = await walk(path);
        if (found) return found;
      }
    }
    return null;
  };
  return walk(target);
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

/** Every entry's header, without writing anything; over a cap, the reading stops at once and rejects. */
async function listEntries(file: string, limits: AssetLimits): Promise<Entry[]> {
  const { Parser } = await loadTar();
  const entries: Entry[] = [];
  let unpacked = 0;
  return new Promise((resolve, reject) => {
    const parser = new Parser({ strict: true });
    const input = createReadStream(file);
    const stop = (error: Error) => {
      input.destroy();
      parser.abort(error);
    };
    parser.on('entry', (entry: ReadEntry) => {
      entries.push({ path: entry.path, type: entry.type, linkpath: entry.linkpath });
      unpacked += entry.size ?? 0;
      entry.resume();
      if (entries.length > limits.max_entries) stop(new AssetTooLarge('the archive has more entries than', 'max_entries', limits.max_entries));
      else if (unpacked > limits.max_unpacked_bytes)
        stop(new AssetTooLarge('the archive unpacks to more than', 'max_unpacked_bytes', limits.max_unpacked_bytes));
    });
    parser.on('error', reject);
    parser.on('end', () => resolve(entries));
    input.on('error', reject);
    input.pipe(parser);
  });
}

/** Lists every entry first (refusing the archive on the first escape or cap exceeded), then extracts into `target`. */
export async function unpack(file: string, target: string, limits: AssetLimits): Promise<void> {
  const head = await magic(file);
  if (head[0] === 0x50 && head[1] === 0x4b) throw new Error('zip archives are not supported: use tar or tar.gz');
  const entries = await listEntries(file, limits);
  let problem: string | null = null;
  for (const entry of entries) problem ??= entryProblem(entry);
  problem ??= linksProblem(entries);
  if (problem) throw new Error(`archive refused: ${problem}`);
  await (await loadTar()).extract({ file, cwd: target, strict: true, preserveOwner: false });
  const escaping = await linkEscaping(target);
  if (escaping) throw new Error(`archive refused: ${escaping}: link points outside the asset directory`);
}
