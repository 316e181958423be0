// The agent WebSocket's frames (Sensu Go transport/transport.go): the message type, a newline, the payload.

/** Agent → backend: `keepalive`, `event`; backend → agent: `entity_config`, `check_request`. */
export const MESSAGE = { keepalive: 'keepalive', event: 'event', entityConfig: 'entity_config', checkRequest: 'check_request' } as const;

/** A frame's payload as parsed (JSON, or protobuf read as its JSON), before any of its fields is checked. */
export type AgentPayload = Readonly<Record<string, unknown>>;

/** A JSON object, not a list: what a payload's field must be to be read as one. */
export const isObject = (value: unknown): value is AgentPayload => value !== null && typeof value === 'object' && !Array.isArray(value);

const NEWLINE = 0x0a;

export function encodeFrame(type: string, payload: Buffer | string): Buffer {
  return Buffer.concat([Buffer.from(`${type}\n`), typeof payload === 'string' ? Buffer.from(payload) : payload]);
}

/** The type and payload of one frame, or null when it has no newline (Sensu Go's `invalid message`). */
export function decodeFrame(data: Buffer): { type: string; payload: Buffer } | null {
  const at = data.indexOf(NEWLINE);
  return at < 0 ? null : { type: data.subarray(0, at).toString(), payload: data.subarray(at + 1) };
}

const [QUOTE, BACKSLASH] = [0x22, 0x5c];
const [OPEN_BRACE, OPEN_BRACKET] = [0x7b, 0x5b];
const [CLOSE_BRACE, CLOSE_BRACKET] = [0x7d, 0x5d];

/** Whether a JSON text's objects and arrays nest deeper than `max`, read from its bytes before it is parsed. */
export function bytesNestTooDeep(json: Buffer, max: number): boolean {
  // Plain comparisons, not set lookups: this runs over every byte of every frame.
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < json.length; i++) {
    const byte = json[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (byte === BACKSLASH) escaped = true;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth -= 1;
  }
  return false;
}
