// Neither the legacy reference nor the v2 one bounds a name; every door refuses a longer one (schemas/result.json
// says the same for legacy results), so every stored name can be read back and deleted by URL.
export const MAX_NAME_LENGTH = 255;

// Fastify's default route parameter limit is 100 characters; this one holds a longest name percent-encoded or joined in an id.
export const MAX_PARAM_LENGTH = 1024;

// A client's name as its definition must have it (schemas/client.json), at most MAX_NAME_LENGTH: the same rule at every door.
const CLIENT_NAME = /^[\w.-]+$/;

/** Why `name` is not a client name (what every door refuses before anything is stored or counted), or null. */
export function clientNameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || name === '') return 'client name must be a non-empty string';
  if (name.length > MAX_NAME_LENGTH) return `client name must be at most ${MAX_NAME_LENGTH} characters`;
  if (!CLIENT_NAME.test(name)) return 'client name cannot contain spaces or special characters (letters, digits, _, . and - only)';
  return null;
}
