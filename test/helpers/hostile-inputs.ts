// Inputs every door must treat as data or refuse clearly.

/** Object.prototype members: as plain-object keys they resolve to functions, not to absent entries. */
export const PROTOTYPE_NAMES = [
  'constructor',
  'toString',
  '__proto__',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
];

/** Status values as JSON text: Infinity after parsing, rounded past 2^53, a float, a string, below int32, past uint32. */
export const BAD_STATUSES = ['1e400', '9007199254740993', '2.5', '"2"', '-2147483649', '4294967296'];

/** The largest status accepted (uint32, as Sensu Go). */
export const MAX_STATUS = 4294967295;

/** The longest name accepted at every door, and one character more. */
export const LONGEST_NAME = 'n'.repeat(254) + 'x';
export const TOO_LONG_NAME = LONGEST_NAME + 'y';

/** JSON text of arrays nested `levels` deep. */
export const nested = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

/** A legacy result's JSON text with `status` given as raw JSON text and optional extra raw members. */
export const resultText = (name: string, status: string, extra = ''): string => `{"name":"${name}","output":"hostile","status":${status}${extra}}`;
