// Ruby's to_s for substituted values, with arrays in inspect form, as legacy rendered them.
export function rubyToS(value: unknown): string {
  if (Array.isArray(value)) return rubyInspect(value);
  if (typeof value === 'number') return rubyNumber(value);
  if (value !== null && typeof value === 'object') return rubyInspect(value);
  return String(value);
}

function rubyNumber(value: number): string {
  // An integer below 1e21 is written without an exponent, so it came from, and goes back to, a Ruby Integer.
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value);
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : value < 0 ? '-Infinity' : 'NaN';
  const [digits, exponent] = value.toExponential().split('e') as [string, string];
  const power = Number(exponent);
  // Ruby writes a Float below 1e-4 or from 1e16 as d.ddde±XX: at least one decimal, the sign and two exponent digits.
  if (power < -4 || power >= 16) return `${digits.includes('.') ? digits : `${digits}.0`}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
  return String(value);
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
