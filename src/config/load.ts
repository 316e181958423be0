import { readFileSync, readdirSync, statSync, realpathSync, accessSync, constants } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ConfigSources } from './sources.js';
import type { Diagnostic } from './diagnostic.js';
import { parseConfigText } from './parse.js';
import { ERRORS } from '../errors.js';

/** One configuration file as read: its text (for locating diagnostics) and parsed data. */
export interface LoadedFile {
  readonly path: string;
  readonly text: string;
  readonly data: Record<string, unknown> | null;
  readonly diagnostics: readonly Diagnostic[];
  /** True when the text holds no `null`, so no value parsed from it is null (validation need not look for one). */
  readonly nullFree?: boolean;
}

export interface ListedFiles {
  readonly files: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

function fileDiagnostic(code: keyof typeof ERRORS, file: string, detail?: string, line = 1, column = 1): Diagnostic {
  const message = detail ? `${ERRORS[code].message}: ${detail}` : ERRORS[code].message;
  return { code, file, line, column, path: '', message };
}

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

// Every *.json below dir, recursively and through symlinked directories, dot-entries skipped.
function walk(dir: string, seen: Set<string>, out: string[], diagnostics: Diagnostic[]): void {
  let entries: string[];
  try {
    accessSync(dir, constants.R_OK | constants.X_OK);
    entries = readdirSync(dir);
  } catch (error) {
    diagnostics.push(fileDiagnostic('CB_CONFIG_DIR_UNREADABLE', dir, (error as NodeJS.ErrnoException).code));
    return;
  }
  for (const name of entries) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    let stats;
    try {
      stats = statSync(path);
    } catch {
      if (name.endsWith('.json')) diagnostics.push(fileDiagnostic('CB_CONFIG_UNREADABLE', path, 'dangling symbolic link'));
      continue;
    }
    if (stats.isDirectory()) {
      const real = realpathSync(path);
      if (seen.has(real)) continue;
      seen.add(real);
      walk(path, seen, out, diagnostics);
    } else if (name.endsWith('.json')) {
      out.push(path);
    }
  }
}

// Nothing was named and no default exists: say where we looked, not that a directory is unreadable.
function notFoundDiagnostic(searched: readonly string[]): Diagnostic {
  const places = searched.map((path) => resolve(path));
  const list = places.length > 1 ? `${places.slice(0, -1).join(', ')} and ${places.at(-1)}` : places.join('');
  return {
    ...fileDiagnostic('CB_CONFIG_NOT_FOUND', places.at(-1)!, `looked for ${list}; name a file with -c or a directory with -d`),
    line: null,
    column: null,
  };
}

/** The files of all sources, in load order: the config file, then each directory's files sorted by path bytes. */
export function listConfigFiles(sources: ConfigSources): ListedFiles {
  const files: string[] = [];
  const diagnostics: Diagnostic[] = [];
  if (sources.searched) return { files, diagnostics: [notFoundDiagnostic(sources.searched)] };
  if (sources.configFile) files.push(sources.configFile);
  for (const dir of sources.configDirs) {
    const found: string[] = [];
    let stats;
    try {
      stats = statSync(dir);
    } catch {
      diagnostics.push(fileDiagnostic('CB_CONFIG_DIR_UNREADABLE', dir, 'directory does not exist'));
      continue;
    }
    if (!stats.isDirectory()) {
      found.push(dir);
    } else {
      walk(dir, new Set([realpathSync(dir)]), found, diagnostics);
    }
    files.push(...found.sort(byteOrder));
  }
  return { files, diagnostics };
}

// A parsed file keeps its text as bytes (off the JS heap; decoding them gives the same text back) for a diagnostic to decode:
// thousands of retained strings would be copied by every young-generation GC.
function withBytes(path: string, bytes: Buffer, data: Record<string, unknown>, nullFree: boolean): LoadedFile {
  let text: string | undefined;
  return {
    nullFree,
    path,
    get text() {
      return (text ??= bytes.toString('utf8'));
    },
    data,
    diagnostics: [],
  };
}

export function readConfigFile(path: string): LoadedFile {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    return { path, text: '', data: null, diagnostics: [fileDiagnostic('CB_CONFIG_UNREADABLE', path, reason)] };
  }
  // The bytes read are the ones kept: no second encoding of the text.
  const text = bytes.toString('utf8');
  const parsed = parseConfigText(text);
  if (!parsed.ok) {
    const detail = `${parsed.reason} at line ${parsed.line} column ${parsed.column}`;
    return { path, text, data: null, diagnostics: [fileDiagnostic('CB_CONFIG_PARSE', path, detail, parsed.line, parsed.column)] };
  }
  const data = parsed.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { path, text, data: null, diagnostics: [fileDiagnostic('CB_CONFIG_NOT_OBJECT', path)] };
  }
  return withBytes(path, bytes, data as Record<string, unknown>, !text.includes('null'));
}
