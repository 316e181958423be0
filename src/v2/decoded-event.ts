// An Event as a door took it in: made only here, so the intake takes it without checking its types again.
import { decodeAs, type Decoded } from './go-json.js';
import type { Event } from './generated/interfaces.js';
import { typeProblem } from './wire-types.js';

declare const decoded: unique symbol;

/** An Event whose every field present has its Sensu Go type. */
export type DecodedEvent = Event & { readonly [decoded]: true };

/** As Sensu Go's API decodes an Event (unknown fields dropped); the problem is the message its API answers. */
export function decodeEvent(body: unknown): Decoded<DecodedEvent> {
  return decodeAs('Event', body) as Decoded<DecodedEvent>;
}

/** `body` itself once each field present has its type (unknown ones kept); else the field named (the agent door's log). */
export function typedEvent(body: unknown): Decoded<DecodedEvent> {
  const problem = typeProblem('Event', body);
  return problem === null ? { value: body as DecodedEvent, problem: null } : { value: null, problem };
}
