/// <reference lib="es2024.arraybuffer" />
/** Buffers held beyond this size are "large": they may only use the part of the budget left over for small messages. */
const SMALL_MESSAGE_BYTES = 64 * 1024;
const FIRST_CAPACITY = 4096;
// A value that starts with neither `{` nor `[` is at best `ping` or a scalar; it is kept only this far.
const OTHER_CAP = 4096;

/**
 * The bytes buffered by all client socket connections together, bounded so that slow or unfinished senders
 * cannot exhaust memory. A quarter is kept for small messages, so a flood of large ones cannot lock out results.
 */
export class ByteBudget {
  #used = 0;
  constructor(readonly limit: number) {}

  get used(): number {
    return this.#used;
  }

  take(bytes: number, large: boolean): boolean {
    const ceiling = large ? this.limit - Math.floor(this.limit / 4) : this.limit;
    if (this.#used + bytes > ceiling) return false;
    this.#used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.#used -= bytes;
  }
}

export type Reading =
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'ping' }
  | { readonly kind: 'value'; readonly value: unknown }
  /** Can never become valid JSON or `ping`: the bytes are dropped, the caller waits as legacy does. */
  | { readonly kind: 'unparseable' }
  | { readonly kind: 'over-budget' };

const INCOMPLETE: Reading = { kind: 'incomplete' };
const UNPARSEABLE: Reading = { kind: 'unparseable' };

const isJsonSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
const indexOrEnd = (bytes: Buffer, byte: number, from: number) => {
  const at = bytes.indexOf(byte, from);
  return at < 0 ? bytes.length : at;
};

/**
 * One connection's message. Bytes are kept raw and decoded once, so a character split across reads survives.
 * A `{`/`[` value is scanned as it arrives (strings, escapes, nesting), and JSON.parse runs once, when the
 * top-level value closes: a trickled message costs linear time, not a re-parse of the whole buffer per read.
 */
export class MessageReader {
  // Resizable: shrinking it to nothing hands the pages back to the system at once, not at some later GC.
  #store: ArrayBuffer | null = null;
  #bytes: Buffer | null = null;
  #length = 0;
  #mode: 'blank' | 'container' | 'other' | 'dead' = 'blank';
  #depth = 0;
  #inString = false;
  #escaped = false;

  constructor(
    private readonly budget: ByteBudget,
    private readonly maxBytes: number,
  ) {}

  push(chunk: Buffer): Reading {
    if (this.#mode === 'dead') return UNPARSEABLE;
    if (this.#store === null && this.#length === 0) return this.#readInPlace(chunk);
    const from = this.#length;
    if (!this.#append(chunk)) {
      this.release();
      this.#mode = 'dead';
      return { kind: 'over-budget' };
    }
    if (this.#mode === 'blank') this.#start(from);
    if (this.#mode === 'other') return this.#readOther();
    if (this.#mode === 'container') return this.#readContainer(from);
    return INCOMPLETE;
  }

  // The common case, a whole message in one read, is read where it lies: no buffer of this reader is reserved or
  // filled (reserving and handing back its pages cost a tenth of a one-result connection). Only what is still
  // incomplete is copied, into the reader's own buffer within the budget.
  #readInPlace(chunk: Buffer): Reading {
    this.#bytes = chunk;
    this.#length = chunk.length;
    let reading: Reading = INCOMPLETE;
    if (this.#mode === 'blank') this.#start(0);
    if (this.#mode === 'other') reading = this.#readOther();
    else if (this.#mode === 'container') reading = this.#readContainer(0);
    this.#bytes = null;
    this.#length = 0;
    if (reading !== INCOMPLETE) return reading;
    if (this.#append(chunk)) return INCOMPLETE;
    this.release();
    this.#mode = 'dead';
    return { kind: 'over-budget' };
  }

  /** Drops the bytes and hands their room back to the budget. */
  release(): void {
    if (this.#store) {
      this.budget.give(this.#store.byteLength);
      this.#store.resize(0);
    }
    this.#store = null;
    this.#bytes = null;
    this.#length = 0;
  }

  #append(chunk: Buffer): boolean {
    const needed = this.#length + chunk.length;
    const capacity = this.#store?.byteLength ?? 0;
    if (needed > capacity) {
      // The most one message may ever hold: it reserves address space only, pages come as it grows.
      const room = Math.min(this.maxBytes, this.budget.limit);
      if (needed > room) return false;
      let grown = Math.max(capacity * 2, FIRST_CAPACITY);
      while (grown < needed) grown *= 2;
      grown = Math.min(grown, room);
      if (!this.budget.take(grown - capacity, grown > SMALL_MESSAGE_BYTES)) return false;
      try {
        this.#store ??= new ArrayBuffer(0, { maxByteLength: room });
        this.#store.resize(grown);
      } catch {
        // The system refused the memory: as good as a full budget.
        this.budget.give(grown - capacity);
        return false;
      }
      this.#bytes = Buffer.from(this.#store, 0, grown);
    }
    chunk.copy(this.#bytes!, this.#length);
    this.#length = needed;
    return true;
  }

  #start(from: number): void {
    const bytes = this.#bytes!;
    for (let i = from; i < this.#length; i++) {
      if (isJsonSpace(bytes[i]!)) continue;
      this.#mode = bytes[i] === 0x7b || bytes[i] === 0x5b ? 'container' : 'other';
      return;
    }
  }

  #text(): string {
    return this.#bytes!.toString('utf8', 0, this.#length);
  }

  // Legacy re-reads the whole buffer after every read; a short one costs nothing to re-read.
  #readOther(): Reading {
    if (this.#length > OTHER_CAP) return this.#die();
    const text = this.#text();
    if (text.trim() === 'ping') return { kind: 'ping' };
    try {
      return { kind: 'value', value: JSON.parse(text) };
    } catch {
      return INCOMPLETE;
    }
  }

  #readContainer(from: number): Reading {
    const end = this.#scan(from);
    if (end < 0) return INCOMPLETE;
    // Anything but space after the value closed can never parse.
    for (let i = end + 1; i < this.#length; i++) if (!isJsonSpace(this.#bytes![i]!)) return this.#die();
    try {
      return { kind: 'value', value: JSON.parse(this.#text()) };
    } catch {
      // The value closed and still does not parse: no later byte can mend it.
      return this.#die();
    }
  }

  /**
   * Follows strings, escapes and nesting from `from`; answers where the top-level value closed, or -1.
   * String contents are skipped with indexOf, not byte by byte.
   */
  #scan(from: number): number {
    const bytes = this.#bytes!.subarray(0, this.#length);
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    let nextQuote = -1;
    let nextBackslash = -1;
    let end = -1;
    let i = from;
    while (i < bytes.length) {
      if (inString) {
        if (escaped) {
          escaped = false;
          i++;
          continue;
        }
        if (nextQuote < i) nextQuote = indexOrEnd(bytes, 0x22, i);
        if (nextBackslash < i) nextBackslash = indexOrEnd(bytes, 0x5c, i);
        if (nextBackslash < nextQuote) {
          escaped = true;
          i = nextBackslash + 1;
        } else {
          inString = nextQuote === bytes.length;
          i = nextQuote + 1;
        }
        continue;
      }
      const byte = bytes[i]!;
      if (byte === 0x22) inString = true;
      else if (byte === 0x7b || byte === 0x5b) depth++;
      else if ((byte === 0x7d || byte === 0x5d) && --depth === 0) {
        end = i;
        break;
      }
      i++;
    }
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
    return end;
  }

  #die(): Reading {
    this.release();
    this.#mode = 'dead';
    return UNPARSEABLE;
  }
}
