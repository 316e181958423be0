// The name rules, Sensu Go's and legacy's, each written once: every door, `compile` and the config checks ask here.
import { MAX_NAME_LENGTH } from '../name-limits.js';

// Sensu Go's NameRegex (`\A[\w\.\-\:]+\z`): ASCII letters, digits, `_ . - :`.
const SENSU_CHARS = String.raw`\w.\-:`;

/** Sensu Go's name rule. */
export const SENSU_NAME = new RegExp(`^[${SENSU_CHARS}]+$`);

// Legacy's name rule (`/\A[\w\.-]+\z/` for checks and clients): Sensu Go's without `:`.
const LEGACY_CHARS = String.raw`\w.-`;

/** Legacy's name rule. */
export const LEGACY_NAME = new RegExp(`^[${LEGACY_CHARS}]+$`);
const OUTSIDE_LEGACY_NAME = new RegExp(`[^${LEGACY_CHARS}]`, 'g');

/** `text` as a legacy name: every character the rule refuses replaced by `_`. */
export const asLegacyName = (text: string): string => text.replace(OUTSIDE_LEGACY_NAME, '_');

/** A silenced entry's name: Sensu Go's, with `*` standing for any subscription or check. */
const SILENCED_NAME = new RegExp(`^[${SENSU_CHARS}*]+$`);
// Sensu Go's asset names also take `/` (Bonsai's `namespace/name`).
const ASSET_NAME = new RegExp(`^[${SENSU_CHARS}/]+$`);
const OUTSIDE_SENSU_NAME = new RegExp(`[^${SENSU_CHARS}]`, 'g');

/** `text` as a Sensu Go name: every character the rule refuses replaced by `_`. */
export const asSensuName = (text: string): string => text.replace(OUTSIDE_SENSU_NAME, '_');

// `.` and `..` cannot be named in a URL (a proxy resolves them away): such a resource could be listed but never read or deleted.
const isDotName = (name: string) => name === '.' || name === '..';

/** Whether `name` is a Sensu Go name every door takes: the regex, at most MAX_NAME_LENGTH, not `.` or `..`. */
export function isSensuName(name: unknown, pattern: RegExp = SENSU_NAME): name is string {
  return typeof name === 'string' && name.length <= MAX_NAME_LENGTH && pattern.test(name) && !isDotName(name);
}

/**
 * Why `name` is not a Sensu Go name, or null; `what` names it (`name`, `entity name`, `workflows[0].name`). Sensu Go
 * says "must not be empty" of an empty one; otherwise the message gives the whole rule, ours included (length, dots).
 */
export function sensuNameProblem(name: unknown, what = 'name'): string | null {
  if (isSensuName(name)) return null;
  if (name === undefined || name === null || name === '') return `${what} must not be empty`;
  return `${what} must be 1 to ${MAX_NAME_LENGTH} letters, digits, _ . - : (not . or ..)`;
}

/** Why `name` is not a silenced entry's name (Sensu Go's rule with `*`), or null. */
export function silencedNameProblem(name: unknown, what = 'name'): string | null {
  if (isSensuName(name, SILENCED_NAME)) return null;
  if (name === undefined || name === null || name === '') return `${what} must not be empty`;
  return `${what} must be 1 to ${MAX_NAME_LENGTH} letters, digits, _ . - : * (not . or ..)`;
}

/** Why `name` is not an asset name, or null: no part between slashes may be empty, `.` or `..`, which a URL cannot name. */
export function assetNameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || name.length > MAX_NAME_LENGTH || !ASSET_NAME.test(name))
    return `asset name must be 1 to ${MAX_NAME_LENGTH} letters, digits, _ . - : /`;
  if (name.split('/').some((part) => part === '' || part === '.' || part === '..'))
    return `asset name ${JSON.stringify(name)}: no part between slashes may be empty, . or ..`;
  return null;
}

/** Whether `name` is a legacy name (checks, clients), at most MAX_NAME_LENGTH. */
export function isLegacyName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= MAX_NAME_LENGTH && LEGACY_NAME.test(name);
}

/** Why `name` is not a legacy name, or null, in legacy's words (`check name`, `client name`). */
export function legacyNameProblem(name: unknown, what: string): string | null {
  if (typeof name !== 'string') return `${what} must be a string`;
  if (!LEGACY_NAME.test(name)) return `${what} cannot contain spaces or special characters`;
  return name.length > MAX_NAME_LENGTH ? `${what} must be at most ${MAX_NAME_LENGTH} characters` : null;
}

/** Why `name` is not a client name (what every door refuses before anything is stored or counted), or null. */
export const clientNameProblem = (name: unknown): string | null => legacyNameProblem(name, 'client name');

/** A name rule without its anchors, to put inside a path pattern (`[\w.-]+`). */
export const unanchored = (rule: RegExp): string => rule.source.replace(/^\^|\$$/g, '');

/** A subscription or a silenced entry's id as the legacy API takes them: Sensu Go's characters (`client:NAME`), `*` in an id. */
export const SUBSCRIPTION_NAME = SENSU_NAME;
export const SILENCED_ID = SILENCED_NAME;
