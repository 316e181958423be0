import type protobuf from 'protobufjs';

/** What a frame may decode to: its JSON bytes at most, and each message type's least JSON (its empty form). */
export interface DecodeBudget {
  readonly maxJsonBytes: number;
  readonly emptyJsonBytes: (type: protobuf.Type) => number;
}

/** The frame decodes to more JSON than its budget: where the count went over, named. */
export class OverBudget extends Error {}

// Extra JSON bytes of a control character: `\b \t \n \f \r` take two, the others `\u00XX` six.
const CONTROL_EXTRA = Array.from({ length: 0x20 }, (_, byte) => ([8, 9, 10, 12, 13].includes(byte) ? 1 : 5));
const [QUOTE, BACKSLASH] = [0x22, 0x5c];

/**
 * The least JSON a string's UTF-8 bytes become once decoded and written: quotes and escapes added, and a byte no UTF-8
 * character starts or continues with read as U+FFFD (three bytes). One plain loop over the bytes, no string built.
 */
export function stringJsonBytes(bytes: Uint8Array, start: number, end: number): number {
  let extra = 2;
  let continuations = 0;
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    if (continuations > 0 && byte >= 0x80 && byte < 0xc0) {
      continuations -= 1;
      continue;
    }
    continuations = 0;
    if (byte < 0x20) extra += CONTROL_EXTRA[byte]!;
    else if (byte === QUOTE || byte === BACKSLASH) extra += 1;
    else if (byte >= 0xc2 && byte <= 0xf4) continuations = byte >= 0xf0 ? 3 : byte >= 0xe0 ? 2 : 1;
    else if (byte >= 0x80) extra += 2;
  }
  return end - start + extra;
}

/** The JSON bytes a frame decodes to, counted as the scan meets each element, and the fields it is inside of. */
export class JsonTally {
  private bytes = 0;
  private readonly path: string[] = [];

  constructor(private readonly budget: DecodeBudget) {}

  /** Counts `bytes` more; past the budget, the frame is refused where the count went over. */
  add(bytes: number, at: number): void {
    this.bytes += bytes;
    if (this.bytes > this.budget.maxJsonBytes)
      throw new OverBudget(
        `it decodes to more than ${this.budget.maxJsonBytes} bytes of JSON, the most a JSON frame carries (checkbridge.agentd.max_message_bytes): ` +
          `over it in ${this.path.join('.')} at byte ${at}`,
      );
  }

  /** A repeated element (with its comma) or a map's value of `type`: its own JSON object, at the least its empty form. */
  element(type: protobuf.Type, at: number, separator = 1): void {
    this.add(this.budget.emptyJsonBytes(type) + separator, at);
  }

  enter(name: string): void {
    this.path.push(name);
  }

  leave(): void {
    this.path.pop();
  }
}
