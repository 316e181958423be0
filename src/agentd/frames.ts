// The agent WebSocket's frames (Sensu Go transport/transport.go): the message type, a newline, the payload.

/** Agent → backend: `keepalive`, `event`; backend → agent: `entity_config`, `check_request`. */
export const MESSAGE = { keepalive: 'keepalive', event: 'event', entityConfig: 'entity_config', checkRequest: 'check_request' } as const;

const NEWLINE = 0x0a;

export function encodeFrame(type: string, payload: Buffer | string): Buffer {
  return Buffer.concat([Buffer.from(`${type}\n`), typeof payload === 'string' ? Buffer.from(payload) : payload]);
}

/** The type and payload of one frame, or null when it has no newline (Sensu Go's `invalid message`). */
export function decodeFrame(data: Buffer): { type: string; payload: Buffer } | null {
  const at = data.indexOf(NEWLINE);
  return at < 0 ? null : { type: data.subarray(0, at).toString(), payload: data.subarray(at + 1) };
}
