// A pipe handler that keeps each event in a file of its own: handlers run at once, and appends to one file interleave.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The handler command: the event is written aside, then renamed, so a reader never sees half of one. */
export const keepEachCommand = (dir: string): string =>
  `mkdir -p ${dir} && f=$(mktemp -p ${dir} part.XXXXXX) && cat > "$f" && mv "$f" "${dir}/$(date +%s%N).$$.json"`;

/** The kept events, parsed, in the order their handlers finished. */
export function keptEvents<T = Record<string, any>>(dir: string): T[] {
  if (!existsSync(dir)) return [];
  const names = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort();
  return names.map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as T);
}
