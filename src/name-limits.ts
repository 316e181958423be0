// Neither the legacy reference nor the v2 one bounds a name; every door refuses a longer one (schemas/result.json
// says the same for legacy results), so every stored name can be read back and deleted by URL.
export const MAX_NAME_LENGTH = 255;

// Fastify's default route parameter limit is 100 characters; this one holds a longest name percent-encoded or joined in an id.
export const MAX_PARAM_LENGTH = 1024;
