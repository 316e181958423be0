// A write decoded as Sensu Go's API decodes it (Go's encoding/json into the core/v2 struct: fields matched without
// regard to case, unknown ones dropped, a value of the wrong type refused with the field named), and a resource
// served as Go writes the struct back (every field, in order, zero values filled in).
import type { Json } from '../json.js';
import { HOOK_LISTS, WIRE_TYPES, isHookLists, type WireType } from './wire-types.js';
import { SERVED_FIELDS } from './served-fields.js';

type Scalar = Exclude<WireType, object | 'map<string,string>' | typeof HOOK_LISTS>;
const GO_SCALARS: Readonly<Record<Scalar, string>> = { string: 'string', bool: 'bool', int32: 'int32', int64: 'int64', uint32: 'uint32', double: 'float64' };
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const intIn = (value: unknown, min: number, max: number) => Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
const FITS: Readonly<Record<Scalar, (value: unknown) => boolean>> = {
  string: (v) => typeof v === 'string',
  bool: (v) => typeof v === 'boolean',
  int32: (v) => intIn(v, -(2 ** 31), 2 ** 31 - 1),
  // 2 ** 63 itself is past Go's int64, and every double at or above it is too.
  int64: (v) => intIn(v, -(2 ** 63), 2 ** 63) && (v as number) < 2 ** 63,
  uint32: (v) => intIn(v, 0, 2 ** 32 - 1),
  double: (v) => typeof v === 'number' && Number.isFinite(v),
};

/** A value Go's decoder refuses: its message is the one Sensu Go's API answers. */
class GoTypeError extends Error {}

function goType(type: WireType): string {
  if (type === 'map<string,string>') return 'map[string]string';
  // Sensu Go's HookList decoder names the list of hook names.
  if (type === HOOK_LISTS) return '[]string';
  if (typeof type === 'string') return GO_SCALARS[type];
  if ('message' in type) return `v2.${type.message}`;
  return `[]${goType(type.list)}`;
}

// Go names what it found: a number's value only when the target is a number too.
function found(value: unknown, type: WireType): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number')
    return typeof type === 'string' && Object.hasOwn(GO_SCALARS, type) && type !== 'string' && type !== 'bool' ? `number ${value}` : 'number';
  return 'string';
}

// A field's path from the top, linked to its parent: joined only for a refusal (this runs on every event written).
type Path = { readonly up: Path | null; readonly name: string };
const joined = (path: Path | null): string => (path === null ? '' : path.up === null ? path.name : `${joined(path.up)}.${path.name}`);

const refuse = (value: unknown, type: WireType, struct: string, path: Path): never => {
  throw new GoTypeError(`json: cannot unmarshal ${found(value, type)} into Go struct field ${struct}.${joined(path)} of type ${goType(type)}`);
};

const lowerNames = new Map<string, Map<string, string>>();
function fieldNamed(kind: string, key: string): string | undefined {
  const schema = WIRE_TYPES[kind]!;
  if (Object.hasOwn(schema, key)) return key;
  let lower = lowerNames.get(kind);
  if (!lower) lowerNames.set(kind, (lower = new Map(Object.keys(schema).map((name) => [name.toLowerCase(), name]))));
  return lower.get(key.toLowerCase());
}

function decodeValue(type: WireType, value: unknown, struct: string, path: Path): unknown {
  if (value === null) return null;
  if (type === 'map<string,string>') {
    if (!isObject(value)) return refuse(value, type, struct, path);
    for (const v of Object.values(value)) if (v !== null && typeof v !== 'string') refuse(v, 'string', struct, path);
    return value;
  }
  if (type === HOOK_LISTS) return isHookLists(value) ? value : refuse(Array.isArray(value) ? 'a string' : value, type, struct, path);
  if (typeof type === 'string') return FITS[type](value) ? value : refuse(value, type, struct, path);
  if ('message' in type) return isObject(value) ? decodeMessage(type.message, value, path) : refuse(value, type, struct, path);
  if (!Array.isArray(value)) return refuse(value, type, struct, path);
  return value.map((item) => decodeValue(type.list, item, struct, path));
}

function decodeMessage(kind: string, value: Json, path: Path | null): Json {
  const schema = WIRE_TYPES[kind]!;
  const out: Json = {};
  for (const key of Object.keys(value)) {
    const field = fieldNamed(kind, key);
    if (field === undefined) continue;
    const decoded = decodeValue(schema[field]!, value[key], kind, { up: path, name: field });
    if (decoded === null) delete out[field];
    else out[field] = decoded;
  }
  return out;
}

/** `body` as Sensu Go's API decodes it into a `kind` (a message of WIRE_TYPES), or the message it refuses it with. */
export function decodeAs(kind: string, body: unknown): { value: Json; problem: null } | { value: null; problem: string } {
  if (!Object.hasOwn(WIRE_TYPES, kind)) throw new Error(`no wire type ${kind}`);
  if (!isObject(body)) return { value: null, problem: `json: cannot unmarshal ${found(body, 'string')} into Go value of type v2.${kind}` };
  try {
    return { value: decodeMessage(kind, body, null), problem: null };
  } catch (error) {
    if (error instanceof GoTypeError) return { value: null, problem: error.message };
    throw error;
  }
}

const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === '' ||
  value === 0 ||
  value === false ||
  (Array.isArray(value) && value.length === 0) ||
  (isObject(value) && Object.keys(value).length === 0);

function serveValue(type: WireType | undefined, value: unknown): unknown {
  if (type === undefined || value === null || value === undefined || typeof type === 'string') return value;
  if ('message' in type) return isObject(value) ? serveAs(type.message, value) : value;
  const of = type.list;
  return Array.isArray(value) && typeof of === 'object' && 'message' in of ? value.map((item) => serveValue(of, item)) : value;
}

function zeroOf(type: WireType | undefined): unknown {
  if (type === 'string') return '';
  if (type === 'bool') return false;
  if (typeof type === 'string' && Object.hasOwn(GO_SCALARS, type)) return 0;
  return null;
}

/** `value` (a `kind`) as Sensu Go serves it: every field of the type, in the type's order; unknown fields left out. */
export function serveAs(kind: string, value: Json): Json {
  const fields = SERVED_FIELDS.get(kind);
  if (!fields) return value;
  const schema = WIRE_TYPES[kind] ?? {};
  const out: Json = {};
  for (const field of fields) {
    const type = schema[field.name];
    const present = value[field.name];
    // A pointer to a struct is left out only when nil, an empty one is still written.
    const empty = type !== undefined && typeof type === 'object' && 'message' in type ? present === undefined || present === null : isEmpty(present);
    if (field.omitEmpty && !field.byValue && empty) continue;
    if (present !== undefined && present !== null) out[field.name] = serveValue(type, present);
    else if (field.byValue && type !== undefined && typeof type === 'object' && 'message' in type) out[field.name] = serveAs(type.message, {});
    else out[field.name] = field.neverNull ? [] : zeroOf(type);
  }
  return out;
}
