// How the generated table (src/v2/generated/fields.ts) describes one JSON field of a Sensu Go type, and the values each
// scalar takes: the one copy of these checks, for decoding and the wire checks alike.
export type Scalar = 'string' | 'bool' | 'int32' | 'int64' | 'uint32' | 'double';
/** `check_hooks`: HookList's JSON is an object from a status or severity to hook names, `[{"critical": ["h"]}]`. */
export const HOOK_LISTS = '[]map<string,[]string>';
/** A field's type: a scalar, a message by name, a list or map of either, a map of strings, or check hooks. */
export type WireType =
  | Scalar
  | { readonly message: string }
  | { readonly list: Scalar | { readonly message: string; readonly pointer?: true } }
  | { readonly map: Scalar | { readonly message: string } }
  | 'map<string,string>'
  | typeof HOOK_LISTS;

/** One JSON field, in the order Go writes it. */
export interface FieldSpec {
  readonly name: string;
  readonly type: WireType;
  /** Left out when empty (omitempty). */
  readonly omitEmpty?: true;
  /** A struct held by value: written as an object (its own zero fields) even when unset, never null. */
  readonly byValue?: true;
  /** A list the type's MarshalJSON writes as [] when unset. */
  readonly neverNull?: true;
  /** Bytes (written as text): null when unset, not "". */
  readonly nullWhenUnset?: true;
}

export const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const intIn = (min: number, max: number) => (value: unknown) => Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/** Each scalar: the values Go's encoding/json decodes into it, how a message says it, and its Go name. */
export const SCALARS: Readonly<Record<Scalar, { readonly fits: (value: unknown) => boolean; readonly says: string; readonly go: string }>> = {
  string: { fits: (v) => typeof v === 'string', says: 'a string', go: 'string' },
  bool: { fits: (v) => typeof v === 'boolean', says: 'true or false', go: 'bool' },
  int32: { fits: intIn(-(2 ** 31), 2 ** 31 - 1), says: 'a 32-bit integer', go: 'int32' },
  // 2 ** 63 itself is past Go's int64, and every double at or above it is too.
  int64: { fits: (v) => intIn(-(2 ** 63), 2 ** 63)(v) && (v as number) < 2 ** 63, says: 'a 64-bit integer', go: 'int64' },
  uint32: { fits: intIn(0, 2 ** 32 - 1), says: 'an unsigned 32-bit integer', go: 'uint32' },
  double: { fits: (v) => typeof v === 'number' && Number.isFinite(v), says: 'a number', go: 'float64' },
};
export const isScalar = (type: WireType): type is Scalar => typeof type === 'string' && Object.hasOwn(SCALARS, type);

const isNames = (v: unknown) => v === null || (Array.isArray(v) && v.every((name) => name === null || typeof name === 'string'));
/** Whether a value is check hooks: a list of objects from a status or severity to hook names. */
export const isHookLists = (value: unknown) =>
  Array.isArray(value) && value.every((entry) => entry === null || (isObject(entry) && Object.values(entry).every(isNames)));
