// Which handlers an event goes to: a pure rule shared by the server and compile.
import type { Settings } from '../config/index.js';

/** A handler ready to run: a settings definition plus its name, or a built-in extension. */
export type Handler = Record<string, unknown> & { name: string; type: string };

/** Built-in extension handlers. */
export const EXTENSION_HANDLERS = new Set(['debug', 'deregistration']);
const MAX_SET_DEPTH = 2;

export interface Resolution {
  readonly handlers: Handler[];
  /** Names skipped, each with the legacy reason. */
  readonly errors: { name: string; message: string }[];
}

function sameHandler(a: Handler, b: Handler): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The check's handler list: `handlers`, else `handler`, else "default" (Ruby `Array(...)`). */
export function handlerNames(check: Record<string, unknown>): string[] {
  const list = check.handlers ?? check.handler ?? 'default';
  return (Array.isArray(list) ? list : [list]).filter((n) => n !== null && n !== undefined).map(String);
}

/** derive_handlers: sets expand to two levels, a set naming itself or an ancestor is a loop; unknown names are skipped. */
export function resolveHandlers(settings: Settings, names: readonly string[]): Resolution {
  const handlers: Handler[] = [];
  const errors: { name: string; message: string }[] = [];
  const walk = (list: readonly string[], depth: number, path: readonly string[]) => {
    for (const name of list) {
      const definition = settings.handlers[name];
      if (definition) {
        const handler = { ...definition, name } as Handler;
        if (handler.type === 'set') {
          if (path.includes(name)) errors.push({ name, message: `handler set loop: ${[...path, name].join(' -> ')}` });
          else if (depth >= MAX_SET_DEPTH) errors.push({ name, message: 'handler sets cannot be deeply nested' });
          else walk(Array.isArray(handler.handlers) ? handler.handlers.map(String) : [], depth + 1, [...path, name]);
          continue;
        }
        handlers.push(handler);
      } else if (EXTENSION_HANDLERS.has(name)) {
        handlers.push({ name, type: 'extension' });
      } else {
        errors.push({ name, message: 'unknown handler' });
      }
    }
  };
  walk(names, 0, []);
  return { handlers: handlers.filter((h, i) => handlers.findIndex((o) => sameHandler(o, h)) === i), errors };
}
