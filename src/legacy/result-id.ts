/**
 * How long servers remember a result's `result_id`: a copy a client sends again later than this after the original was
 * handled is not recognised, so a client sends again no confirmed result older than half of it.
 */
export const RESULT_ID_RETENTION_MS = 15 * 60_000;
