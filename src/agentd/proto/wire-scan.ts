import type protobuf from 'protobufjs';
import { JsonTally, OverBudget, stringJsonBytes, type DecodeBudget } from './json-size.js';

// Wire types: varint, 64-bit, length-delimited, group start, group end, 32-bit.
const [VARINT, I64, LEN, GROUP_START, GROUP_END, I32] = [0, 1, 2, 3, 4, 5];
const WIRE_OF: Readonly<Record<string, number>> = { int64: VARINT, int32: VARINT, uint32: VARINT, bool: VARINT, double: I64, string: LEN, bytes: LEN };
const WIRE_NAME = ['varint', '64-bit', 'length-delimited', 'group start', 'group end', '32-bit', 'invalid (6)', 'invalid (7)'];

class Malformed extends Error {}

/** A cursor over one frame's bytes; every read past the end is a named problem, not an exception from the decoder. */
class Cursor {
  constructor(
    readonly bytes: Uint8Array,
    public pos: number,
  ) {}

  varint(end: number): number {
    let value = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (this.pos >= end) throw new Malformed(`truncated varint at byte ${this.pos}`);
      const byte = this.bytes[this.pos++]!;
      if (shift < 53) value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
    throw new Malformed(`varint longer than 10 bytes at byte ${this.pos}`);
  }

  skip(count: number, end: number): void {
    if (count > end - this.pos) throw new Malformed(`truncated field at byte ${this.pos}: ${count} bytes announced, ${end - this.pos} left`);
    this.pos += count;
  }
}

/** The wire type a field of the schema arrives in (a repeated number may also come packed, length-delimited). */
function expectedWire(field: protobuf.Field): number {
  if (field.map || field.resolvedType) return LEN;
  return WIRE_OF[field.type] ?? LEN;
}

/** What a scan checks beside the wire types: how deep messages nest, and (when counted) the JSON they decode to. */
interface Limits {
  readonly maxDepth: number;
  readonly tally: JsonTally | null;
}

/**
 * Why a protobuf message does not fit `type`, or null: every field's wire type is the schema's, every length within
 * its message, messages (and unknown groups) nest at most `maxDepth` deep, and (given a budget) what it decodes to, as
 * JSON, stays within the budget: every repeated element, map entry and string counted as met. Read before the decoder
 * sees the bytes, so a frame refused costs no decoded object. `tooLarge` says the budget was what refused it.
 */
export function wireProblem(bytes: Uint8Array, type: protobuf.Type, maxDepth: number, budget?: DecodeBudget): { message: string; tooLarge: boolean } | null {
  const tally = budget ? new JsonTally(budget) : null;
  try {
    tally?.enter(type.name);
    tally?.add(budget!.emptyJsonBytes(type), 0);
    scanMessage(new Cursor(bytes, 0), bytes.length, type, 1, { maxDepth, tally });
    return null;
  } catch (error) {
    if (error instanceof Malformed) return { message: error.message, tooLarge: false };
    if (error instanceof OverBudget) return { message: error.message, tooLarge: true };
    throw error;
  }
}

// A skipped field (never written in the agent's JSON) is read but not counted.
const written = (field: protobuf.Field) => field.options?.['(skip)'] !== true;

function scanMessage(cursor: Cursor, end: number, type: protobuf.Type | null, depth: number, limits: Limits): void {
  const { maxDepth } = limits;
  if (depth > maxDepth) throw new Malformed(`protobuf nested deeper than ${maxDepth} levels`);
  while (cursor.pos < end) {
    const at = cursor.pos;
    const tag = cursor.varint(end);
    const [number, wire] = [Math.floor(tag / 8), tag % 8];
    if (number === 0 || number > 0x1fffffff) throw new Malformed(`field number ${number} at byte ${at}`);
    const field = type?.fieldsById[number];
    if (!field) {
      skipUnknown(cursor, end, number, wire, depth, maxDepth);
      continue;
    }
    const expected = expectedWire(field);
    const packed = field.repeated && !field.map && wire === LEN && expected !== LEN;
    if (wire !== expected && !packed)
      throw new Malformed(`field ${number} (${field.name}) of ${type!.name} at byte ${at} has wire type ${WIRE_NAME[wire]}, expected ${WIRE_NAME[expected]}`);
    const tally = written(field) ? limits.tally : null;
    tally?.enter(field.name);
    const key = keyBytes(field);
    if (wire === VARINT) {
      const begin = cursor.pos;
      const value = cursor.varint(end);
      // A repeated number is at least a digit and a comma; a single one is as wide as its digits.
      if (field.repeated) tally?.add(2, at);
      // Seven bytes carry 49 bits, exact as a double; a longer varint is read again exactly (its sign, zigzag, 64 bits).
      else if (cursor.pos - begin > 7 && field.type !== 'bool') tally?.add(key + wideChars(cursor.bytes, begin, cursor.pos, field.type) - 1, at);
      else if (value !== 0) tally?.add(key + (field.type === 'bool' ? 0 : digitsOf(value) - 1), at);
    } else if (wire === I64) {
      const start = cursor.pos;
      cursor.skip(8, end);
      if (field.repeated) tally?.add(2, at);
      else if (!isZeroDouble(cursor.bytes, start)) tally?.add(key + (field.type === 'double' ? doubleJsonChars(cursor.bytes, start) - 1 : 0), at);
    } else {
      const length = cursor.varint(end);
      const start = cursor.pos;
      cursor.skip(length, end);
      const inner = new Cursor(cursor.bytes, start);
      const counted = tally === limits.tally ? limits : { maxDepth, tally };
      if (field.map) scanMapEntry(inner, start + length, field as unknown as protobuf.MapField, depth + 1, counted);
      else if (field.resolvedType) {
        // An element of a list, or a message Go's JSON leaves out when absent: its key and its empty form, at least.
        if (field.repeated) tally?.element(field.resolvedType as protobuf.Type, at);
        else if (key > 0) tally?.element(field.resolvedType as protobuf.Type, at, key);
        scanMessage(inner, start + length, field.resolvedType as protobuf.Type, depth + 1, counted);
      } else if (packed)
        while (inner.pos < start + length) {
          if (expected === VARINT) inner.varint(start + length);
          else inner.skip(8, start + length);
          tally?.add(2, at);
        }
      else if (tally) tally.add(scalarJsonBytes(cursor.bytes, start, length, field) + (length > 0 ? key : 0), at);
    }
    tally?.leave();
  }
}

/** `"name":` and a comma: what a single field Go's JSON leaves out when empty adds once it holds something. */
const keyBytes = (field: protobuf.Field) => (!field.repeated && field.options?.['(omitempty)'] === true ? field.name.length + 3 : 0);

/** The digits of a whole number, at least one. */
function digitsOf(value: number): number {
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
  return digits;
}

/** A varint of more than seven bytes as JSON writes it, read again exactly: a negative int32/int64 with its sign, a zigzag, an unsigned. */
function wideChars(bytes: Uint8Array, begin: number, end: number, type: string): number {
  let big = 0n;
  for (let i = end - 1; i >= begin; i--) big = (big << 7n) | BigInt(bytes[i]! & 0x7f);
  const value = type === 'int64' || type === 'int32' ? BigInt.asIntN(64, big) : type.startsWith('sint') ? (big >> 1n) ^ -(big & 1n) : big;
  return value.toString().length;
}

/** The characters Go's JSON writes for a little-endian double: JavaScript's shortest form, the same digits and exponent cut-offs. */
function doubleJsonChars(bytes: Uint8Array, start: number): number {
  const value = new DataView(bytes.buffer, bytes.byteOffset + start, 8).getFloat64(0, true);
  return Number.isFinite(value) ? String(value).length : 1;
}

/** A little-endian double of 0 or -0, which Go's JSON leaves out as empty. */
function isZeroDouble(bytes: Uint8Array, start: number): boolean {
  for (let i = start; i < start + 7; i++) if (bytes[i] !== 0) return false;
  return (bytes[start + 7]! & 0x7f) === 0;
}

/** A string or bytes field's JSON beyond its empty form: a list's element with its comma, a single value's content. */
function scalarJsonBytes(bytes: Uint8Array, start: number, length: number, field: protobuf.Field): number {
  // Bytes are written as base64 (or a UUID's text), longer than they are: their length is the least.
  const own = field.type === 'string' ? stringJsonBytes(bytes, start, start + length) : length + 2;
  return field.repeated ? own + 1 : own - 2;
}

/** A map entry: key (1) a string, value (2) the map's value type; at least a colon and a comma beside them. */
function scanMapEntry(cursor: Cursor, end: number, field: protobuf.MapField, depth: number, limits: Limits): void {
  const { maxDepth, tally } = limits;
  if (depth > maxDepth) throw new Malformed(`protobuf nested deeper than ${maxDepth} levels`);
  tally?.add(2, cursor.pos);
  while (cursor.pos < end) {
    const at = cursor.pos;
    const tag = cursor.varint(end);
    const [number, wire] = [Math.floor(tag / 8), tag % 8];
    if (number !== 1 && number !== 2) {
      skipUnknown(cursor, end, number, wire, depth, maxDepth);
      continue;
    }
    if (wire !== LEN) throw new Malformed(`map ${field.name} entry field ${number} at byte ${at} has wire type ${WIRE_NAME[wire]}, expected length-delimited`);
    const length = cursor.varint(end);
    const start = cursor.pos;
    cursor.skip(length, end);
    if (number === 2 && field.resolvedType) {
      tally?.element(field.resolvedType as protobuf.Type, at, 0);
      scanMessage(new Cursor(cursor.bytes, start), start + length, field.resolvedType as protobuf.Type, depth + 1, limits);
    } else tally?.add(stringJsonBytes(cursor.bytes, start, start + length), at);
  }
}

/** A field the schema does not name is stepped over as its wire type says; its groups count toward the depth. */
function skipUnknown(cursor: Cursor, end: number, number: number, wire: number, depth: number, maxDepth: number): void {
  if (wire === VARINT) cursor.varint(end);
  else if (wire === I64) cursor.skip(8, end);
  else if (wire === I32) cursor.skip(4, end);
  else if (wire === LEN) cursor.skip(cursor.varint(end), end);
  else if (wire === GROUP_START) {
    if (depth + 1 > maxDepth) throw new Malformed(`protobuf nested deeper than ${maxDepth} levels`);
    for (;;) {
      if (cursor.pos >= end) throw new Malformed(`group ${number} not ended`);
      const tag = cursor.varint(end);
      if (tag % 8 === GROUP_END) {
        if (Math.floor(tag / 8) !== number) throw new Malformed(`group ${number} ended as ${Math.floor(tag / 8)}`);
        return;
      }
      skipUnknown(cursor, end, Math.floor(tag / 8), tag % 8, depth + 1, maxDepth);
    }
  } else throw new Malformed(`field ${number} at byte ${cursor.pos} has wire type ${WIRE_NAME[wire]}`);
}
