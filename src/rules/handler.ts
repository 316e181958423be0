// A Handler's rules (Sensu Go's Handler.Validate, the name aside).
import { HANDLER_TYPES, isOneOf } from './enumerations.js';
import type { Json } from '../json.js';

/** A tcp or udp handler's socket: a host and a port other than 0. */
function socketProblem(socket: Json | undefined): string | null {
  if (!socket || typeof socket !== 'object') return 'tcp and udp handlers need a valid socket';
  if (typeof socket.host !== 'string' || socket.host === '') return 'socket host undefined';
  return Number.isInteger(socket.port) && socket.port > 0 ? null : 'socket port undefined';
}

/** The first reason a Handler's spec is invalid, or null. */
export function handlerProblem(h: Json): string | null {
  if (!isOneOf(HANDLER_TYPES, h.type)) return `handler type must be one of ${HANDLER_TYPES.join(', ')}`;
  // A command of spaces runs nothing: Sensu Go trims it before the check.
  if (h.type === 'pipe') return typeof h.command === 'string' && h.command.trim() !== '' ? null : 'missing command';
  return h.type === 'tcp' || h.type === 'udp' ? socketProblem(h.socket) : null;
}
