/**
 * How long servers remember a result's `result_id`: a copy a client sends again later than this after the original was
 * handled is not recognised, so a client sends again no confirmed result older than half of it.
 */
export const RESULT_ID_RETENTION_MS = 15 * 60_000;

// What a checkbridge client's `randomUUID()` makes: 122 random bits, lower-case.
const CLIENT_RESULT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Whether `value` is an id a checkbridge client gives a result: anything else on the wire is not taken as one. */
export function isClientResultId(value: unknown): value is string {
  return typeof value === 'string' && value.length === 36 && CLIENT_RESULT_ID.test(value);
}
