// Legacy read_data: the body must be a JSON object; each field has a type, nil_ok and regex rule.
export type FieldType = 'string' | 'integer' | 'boolean' | 'array' | 'object';
export interface FieldRule {
  readonly type: FieldType;
  readonly nilOk?: boolean;
  readonly regex?: RegExp;
}

const typeOk = (value: unknown, type: FieldType) =>
  type === 'string'
    ? typeof value === 'string'
    : type === 'integer'
      ? Number.isInteger(value)
      : type === 'boolean'
        ? typeof value === 'boolean'
        : type === 'array'
          ? Array.isArray(value)
          : value !== null && typeof value === 'object' && !Array.isArray(value);

/** The body when every rule holds, else null (the caller answers 400). */
export function readData(body: unknown, rules: Record<string, FieldRule>): Record<string, unknown> | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const data = body as Record<string, unknown>;
  for (const [field, rule] of Object.entries(rules)) {
    const value = data[field];
    if (value === undefined || value === null) {
      if (!rule.nilOk) return null;
      continue;
    }
    if (!typeOk(value, rule.type)) return null;
    if (rule.regex && typeof value === 'string' && !rule.regex.test(value)) return null;
  }
  return data;
}
