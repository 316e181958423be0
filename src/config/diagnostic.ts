import type { ErrorCode } from '../errors.js';

// A configuration problem, located where a user can find it.
export interface Diagnostic {
  readonly code: ErrorCode;
  readonly file: string | null;
  readonly line: number | null;
  readonly column: number | null;
  /** JSON pointer into the merged settings, e.g. /checks/disk/interval. */
  readonly path: string;
  readonly message: string;
}

export function pointerOf(segments: readonly (string | number)[]): string {
  return segments.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

export function formatDiagnostic(d: Diagnostic): string {
  const where = `${d.file ?? '<settings>'}:${d.line ?? 0}:${d.column ?? 0}`;
  return `${where} ${d.path || '/'}: ${d.message}`;
}
