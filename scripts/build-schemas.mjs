// Build step after tsc: writes ajv's standalone validators for schemas/*.json into dist, so no command compiles schemas at start.
import { writeFileSync } from 'node:fs';
import { validatorsModuleSource } from '../dist/src/config/schema-compile.js';

writeFileSync(new URL('../dist/src/config/schema-validators.js', import.meta.url), validatorsModuleSource());
