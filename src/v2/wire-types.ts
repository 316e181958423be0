// The JSON types Sensu Go's clients decode, from the one table (schemas/sensu-go-types.txt, generated into
// ./generated/fields.ts): a value of the wrong type here makes `sensuctl` fail for everyone who lists it. Unknown
// fields are no concern of this check.
import { HOOK_LISTS, SCALARS, isHookLists, isObject, isScalar, type WireType } from './field-spec.js';
import { SENSU_GO_FIELDS } from './generated/fields.js';

type Schema = Readonly<Record<string, WireType>>;

/** Each message type by its Go name: its JSON fields' types (never the ones Go's JSON skips). */
export const WIRE_TYPES: Readonly<Record<string, Schema>> = Object.fromEntries(
  Object.entries(SENSU_GO_FIELDS).map(([kind, fields]) => [kind, Object.fromEntries(fields.map((field) => [field.name, field.type]))]),
);

const listOf = (of: WireType) => (isScalar(of) ? `a list of ${SCALARS[of].says.replace(/^an? /, '')}s` : 'a list of objects');

// What a value of a type must be, for the message: "an object", "a list of strings"...
function says(type: WireType): string {
  if (type === HOOK_LISTS) return 'a list of objects of lists of hook names';
  if (type === 'map<string,string>') return 'an object of strings';
  if (isScalar(type)) return SCALARS[type].says;
  if ('message' in type || 'map' in type) return 'an object';
  return listOf(type.list);
}

// null decodes to the zero value of any type in Go: it is never a problem. The path is built only for a problem: this
// runs on every event a door takes.
type Path = () => string;
function problemAt(type: WireType, value: unknown, path: Path): string | null {
  if (value === null || value === undefined) return null;
  const wrong = () => `${path()} must be ${says(type)}`;
  if (type === 'map<string,string>') return isObject(value) && Object.values(value).every((v) => v === null || typeof v === 'string') ? null : wrong();
  if (type === HOOK_LISTS) return isHookLists(value) ? null : wrong();
  if (isScalar(type)) return SCALARS[type].fits(value) ? null : wrong();
  if ('message' in type) return isObject(value) ? messageProblem(type.message, value, path) : wrong();
  if ('map' in type) {
    if (!isObject(value)) return wrong();
    for (const [key, item] of Object.entries(value)) {
      const problem = problemAt(type.map, item, () => `${path()}.${key}`);
      if (problem) return problem;
    }
    return null;
  }
  if (!Array.isArray(value)) return wrong();
  for (let index = 0; index < value.length; index++) {
    const problem = problemAt(type.list, value[index], () => `${path()}[${index}]`);
    if (problem) return isScalar(type.list) ? wrong() : problem;
  }
  return null;
}

// A value sets a few of the many fields its schema knows: its own are checked first, and only when one is wrong are the
// fields walked in the schema's order, so the problem named is the same.
function messageProblem(kind: string, value: Readonly<Record<string, unknown>>, path: Path): string | null {
  const schema = WIRE_TYPES[kind]!;
  for (const field of Object.getOwnPropertyNames(value)) {
    if (Object.hasOwn(schema, field) && problemAt(schema[field]!, value[field], () => `${path()}.${field}`)) return firstProblem(schema, value, path);
  }
  return null;
}

function firstProblem(schema: Schema, value: Readonly<Record<string, unknown>>, path: Path): string | null {
  for (const field in schema) {
    if (!Object.hasOwn(value, field)) continue;
    const problem = problemAt(schema[field]!, value[field], () => `${path()}.${field}`);
    if (problem) return problem;
  }
  return null;
}

/**
 * The first field of `value` Sensu Go's clients could not decode as a `kind` (a message of WIRE_TYPES), named by
 * its path from the kind (`entity.metadata.labels must be an object of strings`), or null.
 */
export function typeProblem(kind: string, value: unknown): string | null {
  if (!Object.hasOwn(WIRE_TYPES, kind)) throw new Error(`no wire type ${kind}`);
  return problemAt({ message: kind }, value, () => kind.replace(/^[A-Z]+(?=[A-Z][a-z]|$)|^[A-Z]/, (head) => head.toLowerCase()));
}
