import { TOKEN } from '../tokens/index.js';
import { escapeTemplateText } from './go-template.js';

/** A legacy client attribute path as a v2 entity label name: dots become underscores. */
export const labelOf = (path: string) => path.replace(/[^\w]/g, '_');

// A Go template field must start with a letter or underscore; other label names are read with `index`.
const labelRead = (label: string) => (/^[A-Za-z_]/.test(label) ? `.labels.${label}` : `index .labels ${JSON.stringify(label)}`);

/**
 * `:::a.b|d:::` becomes `{{ .labels.a_b | default "d" }}` (the v2 agent's template over its entity);
 * `:::name:::` becomes `{{ .name }}`; literal `{{` is escaped so the agent renders it as written.
 * `read` collects label → legacy attribute path.
 */
function toTemplate(text: string, read: Map<string, string>): string {
  const pieces = text.split(new RegExp(TOKEN.source));
  // split with one capture group alternates literal text and token bodies.
  return pieces
    .map((piece, i) => {
      if (i % 2 === 0) return escapeTemplateText(piece);
      const pipe = piece.indexOf('|');
      const path = pipe < 0 ? piece : piece.slice(0, pipe);
      const fallback = pipe < 0 ? undefined : piece.slice(pipe + 1);
      if (path === 'name') return '{{ .name }}';
      const label = labelOf(path);
      read.set(label, path);
      return fallback !== undefined ? `{{ ${labelRead(label)} | default ${JSON.stringify(fallback)} }}` : `{{ ${labelRead(label)} }}`;
    })
    .join('');
}

/** Every string inside `value`, templated. */
export function templateDeep<T>(value: T, read: Map<string, string>): T {
  if (typeof value === 'string') return toTemplate(value, read) as T;
  if (Array.isArray(value)) return value.map((v) => templateDeep(v, read)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, templateDeep(v, read)])) as T;
  return value;
}
