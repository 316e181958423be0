// fieldSelector / labelSelector: `a == b`, `!=`, `in`, `notin`, `matches`, joined by `&&`.
import { selectorValue as str, type FieldSet } from './resource-fields.js';
import type { Check, Entity, Event } from './generated/interfaces.js';

export type Op = { left: string; op: '==' | '!=' | 'in' | 'notin' | 'matches'; right: string[] };

export class SelectorError extends Error {}

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"' || c === "'") {
      const end = text.slice(i + 1).search(/["']/);
      if (end < 0) throw new SelectorError('unterminated string');
      tokens.push('\u0000' + text.slice(i + 1, i + 1 + end));
      i += end + 2;
    } else if (['==', '!=', '&&'].includes(text.slice(i, i + 2))) {
      tokens.push(text.slice(i, i + 2));
      i += 2;
    } else if ('[],'.includes(c)) {
      tokens.push(c);
      i++;
    } else {
      // Bare numbers (and values like 10.0.0.1) are accepted too; the reference lexer wanted them quoted.
      const word = /^[A-Za-z_][\w./-]*|^[\d][\w.:-]*/.exec(text.slice(i));
      if (!word) throw new SelectorError(`unexpected '${c}'`);
      if (word[0].endsWith('.') || text[i + word[0].length] === '=') throw new SelectorError(`bad identifier ${word[0]}`);
      tokens.push(word[0]);
      i += word[0].length;
    }
  }
  return tokens;
}

const value = (token: string | undefined) => {
  if (token === undefined || ['==', '!=', '&&', '[', ']', ','].includes(token)) throw new SelectorError('expected a value');
  return token.startsWith('\u0000') ? token.slice(1) : token;
};

export function parseSelector(text: string): Op[] {
  const tokens = tokenize(text);
  const ops: Op[] = [];
  let i = 0;
  while (i < tokens.length) {
    const left = value(tokens[i++]);
    const raw = tokens[i++];
    const op = raw === '==' || raw === '!=' ? raw : ['in', 'notin', 'matches'].includes(raw?.toLowerCase() ?? '') ? (raw!.toLowerCase() as Op['op']) : null;
    if (!op) throw new SelectorError('expected an operator');
    let right: string[];
    if ((op === 'in' || op === 'notin') && tokens[i] === '[') {
      right = [];
      i++;
      while (tokens[i] !== ']') {
        if (tokens[i] === undefined) throw new SelectorError('unterminated list');
        if (tokens[i] === ',') i++;
        else right.push(value(tokens[i++]));
      }
      i++;
    } else {
      right = [value(tokens[i++])];
    }
    ops.push({ left, op, right });
    if (i < tokens.length && tokens[i++] !== '&&') throw new SelectorError('expected &&');
  }
  return ops;
}

/** The flat field set of an event. */
export function eventFields(event: Event): Record<string, string> {
  const check: Check = event.check ?? {};
  const entity: Entity = event.entity ?? {};
  const fields: Record<string, string> = Object.assign(Object.create(null), {
    'event.name': `${entity.metadata?.name ?? ''}/${check.metadata?.name ?? ''}`,
    'event.namespace': str(event.metadata?.namespace ?? entity.metadata?.namespace),
    'event.is_silenced': str(Boolean(check.is_silenced)),
    'event.timestamp': str(event.timestamp ?? 0),
    'event.check.handlers': str(check.handlers ?? []),
    'event.check.is_silenced': str(Boolean(check.is_silenced)),
    'event.check.last_ok': str(check.last_ok ?? 0),
    'event.check.name': str(check.metadata?.name),
    'event.check.publish': str(Boolean(check.publish)),
    'event.check.round_robin': str(Boolean(check.round_robin)),
    'event.check.runtime_assets': str(check.runtime_assets ?? []),
    'event.check.state': str(check.state),
    'event.check.status': str(check.status ?? 0),
    'event.check.subscriptions': str(check.subscriptions ?? []),
    'event.entity.deregister': str(Boolean(entity.deregister)),
    'event.entity.name': str(entity.metadata?.name),
    'event.entity.entity_class': str(entity.entity_class),
    'event.entity.subscriptions': str(entity.subscriptions ?? []),
  });
  for (const labels of [event.metadata?.labels, entity.metadata?.labels, check.metadata?.labels]) {
    for (const [k, v] of Object.entries(labels ?? {})) fields[`event.labels.${k}`] = str(v);
  }
  return fields;
}

/** Label selectors read labels by bare key, from event, entity, then check labels. */
export function labelFields(event: Event): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const labels of [event.metadata?.labels, event.entity?.metadata?.labels, event.check?.metadata?.labels]) {
    for (const [k, v] of Object.entries(labels ?? {})) out[k] = str(v);
  }
  return out;
}

export function matchesSelector(ops: readonly Op[], fields: Record<string, string>): boolean {
  return ops.every(({ left, op, right }) => {
    if ((op === 'in' || op === 'notin') && right.length === 1 && Object.hasOwn(fields, right[0]!)) {
      const members = fields[right[0]!]!.replace(/^\[|\]$/g, '')
        .split(',')
        .map((s) => s.trim());
      return members.includes(left) === (op === 'in');
    }
    const present = Object.hasOwn(fields, left);
    const actual = fields[left];
    switch (op) {
      case '==':
      case 'in':
        return present && right.includes(actual!);
      case '!=':
      case 'notin':
        return !present || !right.includes(actual!);
      case 'matches':
        return present && actual!.includes(right[0]!);
    }
  });
}

export const EVENT_FIELDS: FieldSet = { prefix: 'event', names: Object.keys(eventFields({})), fields: eventFields, labels: labelFields };
