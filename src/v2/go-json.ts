// A write decoded as Sensu Go's API decodes it (Go's encoding/json into the core/v2 struct: fields matched without
// regard to case, unknown ones dropped, a value of the wrong type refused with the field named), and a resource
// served as Go writes the struct back (every field, in order, zero values filled in).
import { HOOK_LISTS, SCALARS, isHookLists, isObject, isScalar, type FieldSpec, type WireType } from './field-spec.js';
import { WIRE_TYPES } from './wire-types.js';
import { SENSU_GO_FIELDS } from './generated/fields.js';
import type { SensuGoTypes } from './generated/interfaces.js';

/** A Sensu Go type's Go name, as the one table names it. */
export type TypeName = keyof SensuGoTypes;
/** A decoded write: the value as Go's decoder leaves it, or the message it refuses it with. */
export type Decoded<T> = { value: T; problem: null } | { value: null; problem: string };

/** A value Go's decoder refuses: its message is the one Sensu Go's API answers. */
class GoTypeError extends Error {}

function goType(type: WireType): string {
  if (type === 'map<string,string>') return 'map[string]string';
  // Sensu Go's HookList decoder names the list of hook names.
  if (type === HOOK_LISTS) return '[]string';
  if (isScalar(type)) return SCALARS[type].go;
  if ('message' in type) return `v2.${type.message}`;
  if ('map' in type) return `map[string]${isScalar(type.map) ? '' : '*'}${goType(type.map)}`;
  return `[]${typeof type.list === 'object' && type.list.pointer ? '*' : ''}${goType(type.list)}`;
}

// Go names what it found: a number's value only when the target is a number too.
function found(value: unknown, type: WireType): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return isScalar(type) && type !== 'string' && type !== 'bool' ? `number ${value}` : 'number';
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
  if (type === HOOK_LISTS) {
    // Go names the list's own type when it is not a list, and HookList's decoder the hook names' within one.
    if (!Array.isArray(value)) return refuse(value, { list: { message: 'HookList' } }, struct, path);
    return isHookLists(value) ? value : refuse('a string', type, struct, path);
  }
  if (isScalar(type)) return SCALARS[type].fits(value) ? value : refuse(value, type, struct, path);
  if ('message' in type) return isObject(value) ? decodeMessage(type.message, value, path) : refuse(value, type, struct, path);
  if ('map' in type) {
    if (!isObject(value)) return refuse(value, type, struct, path);
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, decodeValue(type.map, item, struct, path)]));
  }
  if (!Array.isArray(value)) return refuse(value, type, struct, path);
  return value.map((item) => decodeValue(type.list, item, struct, path));
}

function decodeMessage(kind: string, value: Readonly<Record<string, unknown>>, path: Path | null): Record<string, unknown> {
  const schema = WIRE_TYPES[kind]!;
  const out: Record<string, unknown> = {};
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
export function decodeAs<K extends TypeName>(kind: K, body: unknown): Decoded<SensuGoTypes[K]> {
  if (!Object.hasOwn(WIRE_TYPES, kind)) throw new Error(`no wire type ${kind}`);
  if (!isObject(body)) return { value: null, problem: `json: cannot unmarshal ${found(body, 'string')} into Go value of type v2.${kind}` };
  try {
    // Every field the decoder kept has its type's JSON shape: the value is a `kind` as its interface reads it.
    return { value: decodeMessage(kind, body, null) as SensuGoTypes[K], problem: null };
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

const isMessage = (type: WireType): type is { readonly message: string } => typeof type === 'object' && 'message' in type;

function serveValue(type: WireType, value: unknown): unknown {
  if (isMessage(type)) return isObject(value) ? serveAs(type.message as TypeName, value) : value;
  if (typeof type === 'string' || !('list' in type) || !isMessage(type.list)) return value;
  const of = type.list;
  return Array.isArray(value) ? value.map((item) => serveValue(of, item)) : value;
}

const zeroOf = (type: WireType): unknown => (type === 'string' ? '' : type === 'bool' ? false : isScalar(type) ? 0 : null);

function servedField(field: FieldSpec, present: unknown): unknown {
  // A struct held by value is never left out nor null: unset, it is the struct with its own zero fields.
  if (field.byValue && isMessage(field.type))
    return present === undefined || present === null ? serveAs(field.type.message as TypeName, {}) : serveValue(field.type, present);
  // A pointer to a struct is left out only when nil, an empty one is still written.
  const empty = isMessage(field.type) ? present === undefined || present === null : isEmpty(present);
  if (field.omitEmpty && empty) return undefined;
  if (present !== undefined && present !== null) return serveValue(field.type, present);
  return field.neverNull ? [] : field.nullWhenUnset ? null : zeroOf(field.type);
}

/** `value` (a `kind`) as Sensu Go serves it: every field of the type, in the type's order; unknown fields left out. */
export function serveAs<K extends TypeName>(kind: K, value: SensuGoTypes[K]): SensuGoTypes[K] {
  const fields = SENSU_GO_FIELDS[kind]!;
  const own = value as Readonly<Record<string, unknown>>;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const served = servedField(field, own[field.name]);
    if (served !== undefined) out[field.name] = served;
  }
  return out as SensuGoTypes[K];
}
