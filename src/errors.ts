// One registry of error codes: message, process exit code and HTTP status live together (docs/operations.md "Error codes").
export interface ErrorSpec {
  readonly message: string;
  readonly exitCode: number;
  readonly httpStatus: number;
  /** The numeric `code` of a v2 API error body (Sensu Go's). */
  readonly apiCode?: number;
}

export const ERRORS = {
  CB_CONFIG_PARSE: { message: 'config file must be valid json', exitCode: 2, httpStatus: 400 },
  CB_CONFIG_UNREADABLE: { message: 'config file does not exist or is not readable', exitCode: 2, httpStatus: 400 },
  CB_CONFIG_DIR_UNREADABLE: { message: 'insufficient permissions for loading', exitCode: 2, httpStatus: 400 },
  CB_CONFIG_NOT_FOUND: { message: 'no configuration found', exitCode: 2, httpStatus: 400 },
  CB_CONFIG_NOT_OBJECT: { message: 'config file must contain a json object', exitCode: 2, httpStatus: 400 },
  CB_CONFIG_RULE: { message: 'definition is invalid', exitCode: 2, httpStatus: 400 },
  CB_CONFIG_LEGACY_MEANING: { message: 'loaded, but not meaning what it says (a warning)', exitCode: 0, httpStatus: 200 },
  CB_CONFIG_LINT: { message: 'refers to what nothing defines, or cannot be filled (a warning)', exitCode: 0, httpStatus: 200 },
  CB_CONFIG_REFUSED: { message: 'refusing to start with invalid configuration', exitCode: 78, httpStatus: 500 },
  CB_CLI_USAGE: { message: 'invalid usage', exitCode: 64, httpStatus: 400 },
  // The usage code, not 1: for `exec` 1 is a check's WARNING.
  CB_CLI_CHECK_UNKNOWN: { message: 'unknown check', exitCode: 64, httpStatus: 404 },
  CB_CLI_CLIENT_FILE: { message: 'client file is invalid', exitCode: 1, httpStatus: 400 },
  CB_LOG_LEVEL: { message: 'Unknown log level', exitCode: 1, httpStatus: 400 },
  CB_STORE_NEWER: { message: 'the state file was written by a newer checkbridge; refusing to open it', exitCode: 1, httpStatus: 500 },
  CB_STORE_UPGRADE: { message: 'the state store needs `checkbridge upgrade`', exitCode: 1, httpStatus: 500 },
  CB_UPGRADE_REFUSED: { message: 'upgrade refused', exitCode: 1, httpStatus: 500 },
  CB_STORE_OPEN: { message: 'cannot open the state store', exitCode: 1, httpStatus: 500 },
  CB_STORE_IN_USE: { message: 'the state store is in use by a running checkbridge; stop it first', exitCode: 1, httpStatus: 409 },
  CB_ENTITY_LIMIT: { message: 'entity limit reached: no license for more entities', exitCode: 1, httpStatus: 402, apiCode: 6 },
  CB_LISTEN: { message: 'cannot listen', exitCode: 1, httpStatus: 500 },
  CB_RUNTIME: { message: 'runtime failure', exitCode: 1, httpStatus: 500 },
  CB_COMPILE_UNMAPPED: { message: 'no v2 equivalent: kept as an annotation', exitCode: 0, httpStatus: 200 },
  CB_PG_DSN: { message: 'invalid PostgreSQL connection settings', exitCode: 1, httpStatus: 400 },
  CB_EVENT_STORE_UNAVAILABLE: { message: 'the PostgreSQL event store is unavailable', exitCode: 1, httpStatus: 503 },
  CB_STORE_UNAVAILABLE: { message: 'the shared PostgreSQL store is unavailable', exitCode: 1, httpStatus: 503 },
  CB_STORE_QUOTA: { message: 'the embedded datastore is over its quota; write refused', exitCode: 1, httpStatus: 507 },
  CB_API_INTERNAL: { message: 'internal error occurred', exitCode: 1, httpStatus: 500, apiCode: 0 },
  CB_API_INVALID: { message: 'invalid argument', exitCode: 1, httpStatus: 400, apiCode: 1 },
  CB_API_NOT_FOUND: { message: 'not found', exitCode: 1, httpStatus: 404, apiCode: 2 },
  CB_API_EXISTS: { message: 'already exists', exitCode: 1, httpStatus: 409, apiCode: 3 },
  // In use: refused while other resources depend on it (Sensu Go answers 409 too).
  CB_API_CONFLICT: { message: 'in use by other resources', exitCode: 1, httpStatus: 409, apiCode: 3 },
  CB_API_FORBIDDEN: { message: 'permission denied', exitCode: 1, httpStatus: 403, apiCode: 4 },
  CB_API_UNAUTHENTICATED: { message: 'unauthenticated', exitCode: 1, httpStatus: 401, apiCode: 5 },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;

export class CheckbridgeError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: number;
  readonly httpStatus: number;

  constructor(code: ErrorCode, detail?: string) {
    const spec = ERRORS[code];
    super(detail ? `${spec.message}: ${detail}` : spec.message);
    this.name = 'CheckbridgeError';
    this.code = code;
    this.exitCode = spec.exitCode;
    this.httpStatus = spec.httpStatus;
  }
}

export function exitCodeOf(code: ErrorCode): number {
  return ERRORS[code].exitCode;
}
