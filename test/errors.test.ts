// fastify's habit (test/internals/errors.test.js): the registry and the table of codes in docs/operations.md say the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers/paths.js';
import { ERRORS, CheckbridgeError, exitCodeOf, type ErrorCode } from '../src/errors.js';

interface Documented {
  readonly message: string;
  readonly exitCode: number;
  readonly httpStatus: number;
  readonly apiCode?: number;
}

/** The rows of the "Error codes" table of docs/operations.md, by code. */
function documentedCodes(): Map<string, Documented> {
  const page = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
  const section = page.slice(page.indexOf('\n## Error codes\n'));
  const rows = new Map<string, Documented>();
  for (const line of section.slice(0, section.indexOf('\n## ', 1)).split('\n')) {
    const cells = /^\| `(CB_[A-Z0-9_]+)` \|(.*)\|$/.exec(line);
    if (!cells) continue;
    const [message, exitCode, httpStatus, apiCode] = cells[2]!.split('|').map((cell) => cell.trim());
    rows.set(cells[1]!, { message: message!, exitCode: Number(exitCode), httpStatus: Number(httpStatus), ...(apiCode ? { apiCode: Number(apiCode) } : {}) });
  }
  return rows;
}

test('every code in the registry is documented in docs/operations.md, with its message, exit code and statuses', () => {
  const documented = documentedCodes();
  for (const [code, spec] of Object.entries(ERRORS)) assert.deepEqual(documented.get(code), { ...spec }, code);
});

test('every code docs/operations.md documents exists in the registry', () => {
  for (const code of documentedCodes().keys()) assert.ok(Object.hasOwn(ERRORS, code), code);
});

test('codes are CB_<AREA>_<DETAIL>, and an error carries its code, exit code and HTTP status', () => {
  for (const code of Object.keys(ERRORS) as ErrorCode[]) {
    assert.match(code, /^CB_[A-Z0-9]+(_[A-Z0-9]+)*$/);
    const error = new CheckbridgeError(code, 'detail');
    assert.equal(error.message, `${ERRORS[code].message}: detail`);
    assert.equal(error.exitCode, exitCodeOf(code));
    assert.equal(error.httpStatus, ERRORS[code].httpStatus);
  }
});
