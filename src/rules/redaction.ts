// The one redaction policy's key list and key matching, for every door that serves a setting, an entity or an event
// (config/redact.ts walks a value with it).

/**
 * The default sensitive keys, in one place: Sensu Go's nine (sensu/core v2 DefaultRedactFields) first, then the rest
 * of the legacy list. A `redact` list of a client or an entity adds to these, never replaces them (the strictest).
 */
export const DEFAULT_REDACT_KEYS: readonly string[] = [
  'password',
  'passwd',
  'pass',
  'api_key',
  'api_token',
  'access_key',
  'secret_key',
  'private_key',
  'secret',
  'routing_key',
  'access_token_read',
  'access_token_write',
  'access_token_path',
  'webhook_url',
  'nickserv_password',
  'channel_password',
  'community',
  'keystore_password',
  'truststore_password',
  'proxy_password',
  'access_key_id',
  'secret_access_key',
];

/** A set of sensitive keys: whether a key names one of them. */
export interface RedactKeys {
  has(key: string): boolean;
}

// Case-blind, ignoring what is not a letter or digit: `API-KEY`, `api_key` and `ApiKey` are one key.
const alphanumeric = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');

// Sensu Go's own normalisation (sensu/core stringutil.normalize): a key with any character beyond a-z and digits
// once lowered keeps its letters a-z only, digits dropped too (`pass_1` is `pass`). Matching either form is the union.
function goForm(key: string): string {
  if (/^[a-z\p{Nd}]*$/u.test(key)) return key;
  const lowered = key.toLowerCase();
  return /^[a-z\p{Nd}]*$/u.test(lowered) ? lowered : lowered.replace(/[^a-z]/g, '');
}

// Keys seen per set, remembered up to a bound (label keys are callers' data): a listing repeats the same few keys.
// A key longer than a field name is matched each time, never kept.
const MEMO_KEY_CHARS = 64;

class KeySet implements RedactKeys {
  private readonly byAlphanumeric: ReadonlySet<string>;
  private readonly byGoForm: ReadonlySet<string>;
  private readonly memo = new Map<string, boolean>();

  constructor(
    keys: readonly string[],
    private readonly memoLimit: number,
  ) {
    const named = keys.filter((key) => key !== '');
    this.byAlphanumeric = new Set(named.map(alphanumeric).filter((key) => key !== ''));
    this.byGoForm = new Set(named.map(goForm).filter((key) => key !== ''));
  }

  has(key: string): boolean {
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    const found = key !== '' && (this.byAlphanumeric.has(alphanumeric(key)) || this.byGoForm.has(goForm(key)));
    if (key.length > MEMO_KEY_CHARS) return found;
    if (this.memo.size >= this.memoLimit) this.memo.clear();
    this.memo.set(key, found);
    return found;
  }
}

/** The default keys alone. */
export const DEFAULT_KEYS: RedactKeys = new KeySet(DEFAULT_REDACT_KEYS, 4096);

/** The strings of a `redact` list, or none when it is not a list. */
export function ownRedactList(list: unknown): string[] {
  return Array.isArray(list) ? list.filter((key): key is string => typeof key === 'string') : [];
}

// Sets built for own lists, by the list: a listing of many entities sharing one list builds it once (256 sets of 256
// remembered keys at most).
const OWN_SETS_LIMIT = 256;
const ownSets = new Map<string, KeySet>();

/** The default keys plus the strings of a client's or an entity's own `redact` list. */
export function redactKeysWith(list: unknown): RedactKeys {
  const own = ownRedactList(list);
  if (own.length === 0) return DEFAULT_KEYS;
  const id = JSON.stringify(own);
  // A list longer than any a person writes is built for this use only, never kept.
  if (id.length > 4096) return new KeySet([...DEFAULT_REDACT_KEYS, ...own], 256);
  let set = ownSets.get(id);
  if (!set) {
    if (ownSets.size >= OWN_SETS_LIMIT) ownSets.clear();
    set = new KeySet([...DEFAULT_REDACT_KEYS, ...own], 256);
    ownSets.set(id, set);
  }
  return set;
}
