// A block-style YAML emitter for JSON data: the `yaml` package took 4 of the 5.2 s of compiling 10,000 checks
// (test/bench/compile), and our documents are plain JSON values, which need none of its generality.
const PLAIN = /^[A-Za-z_/][\w./-]*$/;
const RESERVED = /^(y|n|yes|no|true|false|on|off|null|~)$/i;

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return PLAIN.test(value) && !RESERVED.test(value) ? value : JSON.stringify(value);
  return String(value);
}

const key = (k: string) => (PLAIN.test(k) && !RESERVED.test(k) ? k : JSON.stringify(k));
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function emit(value: unknown, indent: string, lines: string[], prefix: string): void {
  if (Array.isArray(value)) {
    if (value.length === 0) return void lines.push(`${prefix}[]`);
    if (prefix) lines.push(prefix.trimEnd());
    for (const item of value) {
      if (isObject(item) && Object.keys(item).length > 0) {
        const [first, ...rest] = Object.entries(item);
        emit(first![1], indent + '    ', lines, `${indent}- ${key(first![0])}:${inline(first![1]) ? ' ' : ''}`);
        for (const [k, v] of rest) emit(v, indent + '    ', lines, `${indent}  ${key(k)}:${inline(v) ? ' ' : ''}`);
      } else emit(item, indent + '  ', lines, `${indent}- `);
    }
    return;
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return void lines.push(`${prefix}{}`);
    if (prefix) lines.push(prefix.trimEnd());
    for (const [k, v] of entries) emit(v, indent + '  ', lines, `${indent}${key(k)}:${inline(v) ? ' ' : ''}`);
    return;
  }
  lines.push(prefix + scalar(value));
}

// Scalars and empty collections stay on their key's line.
function inline(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (isObject(value)) return Object.keys(value).length === 0;
  return true;
}

/** One YAML document for a JSON object. */
export function toYaml(document: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const [k, v] of Object.entries(document)) emit(v, '  ', lines, `${key(k)}:${inline(v) ? ' ' : ''}`);
  return lines.join('\n') + '\n';
}
