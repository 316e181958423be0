// JSON shapes, named once for every module.

/** A JSON value, typed strictly. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object, typed strictly. */
export type JsonObject = { [key: string]: JsonValue };

/** A resource, event or request body as parsed JSON, its fields read without a schema type. */
export type Json = Record<string, any>;
