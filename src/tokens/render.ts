// Ruby's to_s for substituted values, with arrays in inspect form, as legacy rendered them.
export function rubyToS(value: unknown): string {
  if (Array.isArray(value)) return rubyInspect(value);
  if (typeof value === 'number') return rubyNumber(value);
  if (value !== null && typeof value === 'object') return rubyInspect(value);
  return String(value);
}

function rubyNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return String(value);
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : value < 0 ? '-Infinity' : 'NaN';
  const text = String(value);
  return text.includes('e') ? text.replace(/e\+?/, '.0e+').replace('.0e+-', 'e-') : text;
}

export function rubyInspect(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return rubyNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return '[' + value.map(rubyInspect).join(', ') + ']';
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return '{' + entries.map(([k, v]) => `${/^[A-Za-z_]\w*$/.test(k) ? ':' + k : ':' + JSON.stringify(k)}=>${rubyInspect(v)}`).join(', ') + '}';
}
