// The Silenced kind: named `subscription:check` and timed as Sensu Go stores a silenced entry.
import { silencedNameProblem, silencedProblem } from '../../rules/index.js';
import type { Silenced } from '../../v2/index.js';
import { resourceKind } from './resource-writer.js';

/** Sensu Go's name of a silenced entry: `subscription:check`, `*` for the part not given. */
const silencedName = (subscription: unknown, check: unknown) => `${subscription || '*'}:${check || '*'}`;

/**
 * As Sensu Go stores a silenced entry: begin defaults to now; expire (seconds from begin) becomes expire_at; one
 * already expired is not stored (the write still succeeds); the writer is its creator. Without expire it never expires (Sensu Go: 24 h).
 */
function prepareSilenced(s: Silenced, now: number, username: string): Silenced | null {
  const begin = Number(s.begin) > 0 ? Number(s.begin) : now;
  const expireAt = Number(s.expire_at) > 0 ? Number(s.expire_at) : Number(s.expire) > 0 ? begin + Number(s.expire) : 0;
  return expireAt > 0 && expireAt <= now ? null : { ...s, begin, expire_at: expireAt, creator: username };
}

/** The kind's entry among the generic routes' (resources.ts). */
export const SILENCED = resourceKind({
  path: 'silenced',
  type: 'Silenced',
  validate: silencedProblem,
  nameProblem: silencedNameProblem,
  nameOf: (s) => silencedName(s.subscription, s.check),
  prepare: prepareSilenced,
});
