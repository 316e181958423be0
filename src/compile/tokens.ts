import { TOKEN } from '../tokens/index.js';

/** A legacy client attribute path as a v2 entity label name: dots become underscores. */
export const labelOf = (path: string) => path.replace(/[^\w]/g, '_');

/**
 * `:::a.b|d:::` becomes `{{ .labels.a_b | default "d" }}` (the v2 agent's template over its entity);
 * `:::name:::` becomes `{{ .name }}`. `read` collects label → legacy attribute path.
 */
export function toTemplate(text: string, read: Map<string, string>): string {
  return text.replace(TOKEN, (_m, inner: string) => {
    const pipe = inner.indexOf('|');
    const path = pipe < 0 ? inner : inner.slice(0, pipe);
    const fallback = pipe < 0 ? undefined : inner.slice(pipe + 1);
    if (path === 'name') return '{{ .name }}';
    const label = labelOf(path);
    read.set(label, path);
    return fallback !== undefined ? `{{ .labels.${label} | default ${JSON.stringify(fallback)} }}` : `{{ .labels.${label} }}`;
  });
}

/** Every string inside `value`, templated. */
export function templateDeep<T>(value: T, read: Map<string, string>): T {
  if (typeof value === 'string') return toTemplate(value, read) as T;
  if (Array.isArray(value)) return value.map((v) => templateDeep(v, read)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, templateDeep(v, read)])) as T;
  return value;
}
