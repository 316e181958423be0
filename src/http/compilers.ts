// Fastify's schema compilers, loaded by the first route that declares a schema: none of ours does, so a listener
// starts without loading ajv and fast-json-stringify (a quarter of a second of a daemon's start).
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type Factory = (...args: unknown[]) => unknown;
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
const lazy = (name: string): Factory => {
  let factory: Factory | null = null;
  return (...args) => (factory ??= (fromFastify(name) as () => Factory)())(...args);
};

/** The `schemaController` option of every Fastify instance we build. */
type Compilers = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
export const lazySchemaController = {
  compilersFactory: {
    buildValidator: lazy('@fastify/ajv-compiler') as NonNullable<Compilers['buildValidator']>,
    buildSerializer: lazy('@fastify/fast-json-stringify-compiler') as NonNullable<Compilers['buildSerializer']>,
  },
};
