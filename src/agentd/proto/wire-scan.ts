import type protobuf from 'protobufjs';

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

/**
 * Why a protobuf message does not fit `type`, or null: every field's wire type is the schema's, every length within
 * its message, and messages (and unknown groups) nest at most `maxDepth` deep. Read before the decoder sees the bytes.
 */
export function wireProblem(bytes: Uint8Array, type: protobuf.Type, maxDepth: number): string | null {
  try {
    scanMessage(new Cursor(bytes, 0), bytes.length, type, 1, maxDepth);
    return null;
  } catch (error) {
    if (error instanceof Malformed) return error.message;
    throw error;
  }
}

function scanMessage(cursor: Cursor, end: number, type: protobuf.Type | null, depth: number, maxDepth: number): void {
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
    if (wire === VARINT) cursor.varint(end);
    else if (wire === I64) cursor.skip(8, end);
    else {
      const length = cursor.varint(end);
      const start = cursor.pos;
      cursor.skip(length, end);
      const inner = new Cursor(cursor.bytes, start);
      if (field.map) scanMapEntry(inner, start + length, field as unknown as protobuf.MapField, depth + 1, maxDepth);
      else if (field.resolvedType) scanMessage(inner, start + length, field.resolvedType as protobuf.Type, depth + 1, maxDepth);
      else if (packed) while (inner.pos < start + length) expected === VARINT ? inner.varint(start + length) : inner.skip(8, start + length);
    }
  }
}

/** A map entry: key (1) a string, value (2) the map's value type. */
function scanMapEntry(cursor: Cursor, end: number, field: protobuf.MapField, depth: number, maxDepth: number): void {
  if (depth > maxDepth) throw new Malformed(`protobuf nested deeper than ${maxDepth} levels`);
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
    if (number === 2 && field.resolvedType)
      scanMessage(new Cursor(cursor.bytes, start), start + length, field.resolvedType as protobuf.Type, depth + 1, maxDepth);
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
