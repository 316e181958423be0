import { createRequire } from 'node:module';
import type protobuf from 'protobufjs';
import type { AgentPayload } from '../frames.js';
import { redactedLabels } from '../../config/index.js';
import { COREV2_PROTO } from '../../v2/index.js';
import { wireProblem } from './wire-scan.js';
import type { DecodeBudget } from './json-size.js';

// protobufjs and the schema (a third of a second) are loaded by the first agent message, not at the daemon's start.
const load = createRequire(import.meta.url);

interface FieldPlan {
  readonly name: string;
  readonly repeated: boolean;
  readonly map: boolean;
  readonly long: boolean;
  readonly uuid: boolean;
  readonly omitEmpty: boolean;
  readonly skip: boolean;
  readonly value: boolean;
  readonly neverNull: boolean;
  readonly flatten: boolean;
  readonly bool: boolean;
  sub: TypePlan | null;
}

interface TypePlan {
  readonly type: protobuf.Type;
  readonly fields: FieldPlan[];
  readonly empty: protobuf.Message;
  /** HookList: Go writes it as `{"<type>": [hooks]}`. */
  readonly hookList: boolean;
  /** Entity: Go's JSON redacts its labels and annotations. */
  readonly entity: boolean;
}

const plans = new Map<protobuf.Type, TypePlan>();

/** How each field of `type` is written as the agent's JSON, read from the schema's options once. */
function planOf(type: protobuf.Type): TypePlan {
  const known = plans.get(type);
  if (known) return known;
  const plan: TypePlan = { type, fields: [], empty: type.create(), hookList: type.name === 'HookList', entity: type.name === 'Entity' };
  plans.set(type, plan);
  for (const field of type.fieldsArray) {
    const option = (name: string) => field.options?.[`(${name})`] === true;
    const long = field.type === 'int64';
    const fieldPlan: FieldPlan = {
      name: field.name,
      repeated: field.repeated,
      map: field.map,
      long,
      uuid: option('uuid'),
      omitEmpty: option('omitempty'),
      skip: option('skip'),
      value: option('value'),
      neverNull: option('never_null'),
      flatten: option('flatten'),
      bool: field.type === 'bool',
      sub: null,
    };
    plan.fields.push(fieldPlan);
    if (field.resolvedType instanceof (load('protobufjs') as typeof protobuf).Type) fieldPlan.sub = planOf(field.resolvedType);
  }
  return plan;
}

// An int64 as its number (the signed high word times 2^32 plus the low word), without building a Long's helpers.
const toNumber = (value: unknown): number =>
  typeof value === 'number' ? value : (value as protobuf.Long).high * 4294967296 + ((value as protobuf.Long).low >>> 0);
/** An object as protobufjs and the agent's JSON build it, its fields written one by one. */
type Fields = Record<string, unknown>;
// What the encoder reads as a message: an object of whatever shape (a list too, as protobufjs reads one), fields unchecked.
const isFields = (value: unknown): value is Readonly<Fields> => value !== null && typeof value === 'object';
const isZero = (value: unknown) => value === 0 || value === '' || value === false || value === null || value === undefined;

function uuidText(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return null;
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');
  if (bytes.length !== 16) return Buffer.from(bytes).toString('base64');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const element = (value: unknown, field: FieldPlan): unknown =>
  field.sub ? toJson(value as protobuf.Message, field.sub) : field.long ? toNumber(value) : value;

/** One field's JSON value, or undefined when Go's JSON leaves it out. */
function fieldJson(value: unknown, field: FieldPlan): unknown {
  if (field.repeated) {
    const list = value as unknown[];
    if (list.length === 0) return field.omitEmpty ? undefined : field.neverNull ? [] : null;
    return list.map((item) => element(item, field));
  }
  if (field.map) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return field.omitEmpty ? undefined : null;
    return Object.fromEntries(entries.map(([key, item]) => [key, element(item, field)]));
  }
  if (field.sub) {
    if (value) return toJson(value as protobuf.Message, field.sub);
    return field.value ? toJson(field.sub.empty, field.sub) : field.omitEmpty ? undefined : null;
  }
  if (field.uuid) return uuidText(value as Uint8Array);
  const scalar = field.long ? toNumber(value) : value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value;
  return field.omitEmpty && isZero(scalar) ? undefined : scalar;
}

function writeFields(message: protobuf.Message, plan: TypePlan, out: Fields): void {
  const source = message as unknown as Record<string, unknown>;
  for (const field of plan.fields) {
    if (field.skip) continue;
    if (field.flatten) {
      writeFields((source[field.name] as protobuf.Message | null) ?? field.sub!.empty, field.sub!, out);
      continue;
    }
    const value = fieldJson(source[field.name], field);
    if (value !== undefined) out[field.name] = value;
  }
}

// The one redaction policy, as every other door serves an entity.
function redactEntity(entity: Fields): void {
  if (isFields(entity.metadata)) entity.metadata = redactedLabels(entity.metadata, entity.redact);
}

/** A decoded message as the agent's JSON for it: the shape the JSON door receives. */
function toJson(message: protobuf.Message, plan: TypePlan): Fields {
  if (plan.hookList) {
    const { type, hooks } = message as unknown as { type: string; hooks: string[] };
    return { [type]: hooks.length > 0 ? [...hooks] : null };
  }
  const out: Fields = {};
  writeFields(message, plan, out);
  if (plan.entity) redactEntity(out);
  return out;
}

/** The plain object protobufjs encodes from the JSON shape this daemon writes (the reverse of toJson). */
function fromJson(json: Readonly<Fields>, plan: TypePlan): Fields {
  if (plan.hookList) {
    const [type, hooks] = Object.entries(json)[0] ?? ['', []];
    return { type, hooks: Array.isArray(hooks) ? hooks : [] };
  }
  const out: Fields = {};
  for (const field of plan.fields) {
    if (field.skip) continue;
    if (field.flatten) {
      out[field.name] = fromJson(json, field.sub!);
      continue;
    }
    const value: unknown = json[field.name];
    if (value === null || value === undefined) continue;
    const inner = (item: unknown) => (field.sub && isFields(item) ? fromJson(item, field.sub) : item);
    if (field.repeated) out[field.name] = Array.isArray(value) ? value.map(inner) : [];
    else if (field.map) out[field.name] = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inner(item)]));
    else if (field.uuid) out[field.name] = Buffer.from(String(value).replace(/-/g, ''), 'hex');
    else out[field.name] = field.sub ? (isFields(value) ? fromJson(value, field.sub) : undefined) : value;
  }
  return out;
}

/** The corev2 message types the agent door exchanges. */
export type AgentMessageType = 'Event' | 'EntityConfig' | 'CheckRequest';

let types: Readonly<Record<AgentMessageType, TypePlan>> | null = null;
// Parsed once, by the first message encoded or decoded.
function parsed(): Readonly<Record<AgentMessageType, TypePlan>> {
  const root = (load('protobufjs') as typeof protobuf).parse(COREV2_PROTO, { keepCase: true }).root.resolveAll();
  return {
    Event: planOf(root.lookupType('sensu.core.v2.Event')),
    EntityConfig: planOf(root.lookupType('sensu.core.v2.EntityConfig')),
    CheckRequest: planOf(root.lookupType('sensu.core.v2.CheckRequest')),
  };
}
const typeOf = (name: AgentMessageType) => (types ??= parsed())[name];

// A bool written `false` when empty may be `true`, a byte shorter.
const shorterBools = (plan: TypePlan): number =>
  plan.fields.reduce(
    (count, field) => count + (field.skip ? 0 : field.flatten ? shorterBools(field.sub!) : field.bool && !field.repeated && !field.omitEmpty ? 1 : 0),
    0,
  );

const leastBytes = new Map<protobuf.Type, number>();
/** The least JSON a message of `type` is written as: its empty form's, measured once per type. */
function emptyJsonBytes(type: protobuf.Type): number {
  let bytes = leastBytes.get(type);
  if (bytes === undefined) {
    const plan = planOf(type);
    leastBytes.set(type, (bytes = Buffer.byteLength(JSON.stringify(toJson(plan.empty, plan))) - shorterBools(plan)));
  }
  return bytes;
}

/** How a payload is read: nesting at most `maxDepth` deep, and (when given) at most `maxJsonBytes` of JSON decoded. */
export interface DecodeLimits {
  readonly maxDepth: number;
  readonly maxJsonBytes?: number;
}

/** A protobuf payload as the agent's JSON for it, or why it is refused (wire types, lengths, depth, size read first). */
export function decodeProtobuf(name: AgentMessageType, payload: Uint8Array, limits: DecodeLimits): AgentPayload | string {
  const plan = typeOf(name);
  const budget: DecodeBudget | undefined = limits.maxJsonBytes === undefined ? undefined : { maxJsonBytes: limits.maxJsonBytes, emptyJsonBytes };
  const problem = wireProblem(payload, plan.type, limits.maxDepth, budget);
  if (problem) return problem.tooLarge ? `the protobuf ${name} is too large: ${problem.message}` : `the payload is not a protobuf ${name}: ${problem.message}`;
  try {
    return toJson(plan.type.decode(payload), plan);
  } catch (error) {
    return `the payload is not a protobuf ${name}: ${(error as Error).message}`;
  }
}

/** A JSON object this daemon sends, as the protobuf message of the same type. */
export function encodeProtobuf(name: AgentMessageType, json: object): Uint8Array {
  const { type } = typeOf(name);
  // Read field by field by the schema's names: a field the type does not have is never read.
  return type.encode(type.fromObject(fromJson(json as Readonly<Fields>, planOf(type)))).finish();
}
