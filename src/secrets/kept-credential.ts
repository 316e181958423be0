// The one rule for a credential sent back as the mask reads show (dump, then create -f): it keeps the stored
// credential only while everything saying where that credential goes, and whom it trusts there, is unchanged.

/** What every read shows in place of a stored credential. */
export const CREDENTIAL_MASK = 'REDACTED';

/** One field that decides where a credential goes (an address) or whom it trusts there (a CA, a name, a client cert). */
export interface CredentialDestination {
  readonly field: string;
  readonly before: unknown;
  readonly after: unknown;
  /** How two values compare; by default as strings, absent and empty alike. */
  readonly same?: (before: unknown, after: unknown) => boolean;
}

export interface Credential {
  /** The credential's field, as the request names it (`spec.client.token`). */
  readonly field: string;
  /** What to ask for when refused (`the vault token`). */
  readonly what: string;
  readonly given: string;
  /** The stored credential; undefined when nothing is stored yet. */
  readonly stored: string | undefined;
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));
const sameText = (a: unknown, b: unknown) => text(a) === text(b);

/** The credential to store: the given one, or for the mask the stored one when no target changed; else the refusal naming the field. */
export function keepCredential(credential: Credential, targets: readonly CredentialDestination[]): { value: string } | { problem: string } {
  if (credential.given !== CREDENTIAL_MASK) return { value: credential.given };
  if (credential.stored === undefined)
    return { problem: `${credential.field} is ${CREDENTIAL_MASK}, as reads show it, but none is stored: give ${credential.what}` };
  const moved = targets.find((t) => !(t.same ?? sameText)(t.before, t.after));
  if (!moved) return { value: credential.stored };
  return {
    problem: `${credential.field} is ${CREDENTIAL_MASK} but ${moved.field} changed (from ${JSON.stringify(text(moved.before))} to ${JSON.stringify(text(moved.after))}): give ${credential.what} for the new target`,
  };
}
