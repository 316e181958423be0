// Types of dist/src/config/schema-validators.js, which scripts/build-schemas.mjs generates at build time.
import type { ErrorObject } from 'ajv/dist/2020.js';

export interface GeneratedValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

export declare const validators: ReadonlyMap<string, GeneratedValidator>;
