import type { FastifyInstance } from 'fastify';

// A key's path from the top, linked to its parent: joined only for the refusal, so the search stays linear.
type Path = { readonly up: Path | null; readonly key: string };
const joined = (path: Path): string => {
  const keys: string[] = [];
  for (let at: Path | null = path; at; at = at.up) keys.push(at.key);
  return keys.reverse().join('.');
};

/** Where `value` holds a key that reaches a prototype (`__proto__`, or `constructor` with `prototype`), or null. */
function prototypeKeyIn(value: unknown): string | null {
  const pending: [unknown, Path | null][] = [[value, null]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, path] = next;
    if (node === null || typeof node !== 'object') continue;
    for (const [key, inner] of Object.entries(node)) {
      const at = { up: path, key };
      if (key === '__proto__') return joined(at);
      if (key === 'constructor' && inner !== null && typeof inner === 'object' && Object.hasOwn(inner, 'prototype')) return `${joined(at)}.prototype`;
      pending.push([inner, at]);
    }
  }
  return null;
}

/** Why the one JSON parser refused `text`, for the 400: JSON's own syntax error, or where a key reaches a prototype. */
function refusal(text: string): Error {
  let reason: string;
  try {
    reason = `holds the key ${prototypeKeyIn(JSON.parse(text)) ?? '__proto__'}, refused: it could reach an object prototype, and no resource has it`;
  } catch (error) {
    reason = `is not valid JSON: ${(error as Error).message}`;
  }
  return Object.assign(new Error(`the request body ${reason}`), { statusCode: 400 });
}

/**
 * Every JSON body the v2 API takes (`application/json` and the PATCH types in `types`) goes through one parser,
 * Fastify's secure one: a key it refuses in a PUT is refused the same way in a PATCH. The refusal names its reason.
 */
export function readJsonBodies(app: FastifyInstance, types: readonly string[]): void {
  const secureParse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(['application/json', ...types], { parseAs: 'string' }, (request, body, done) =>
    secureParse(request, String(body), (error, value) => (error ? done(refusal(String(body))) : done(null, value))),
  );
}
