// HTTP plumbing shared by the listeners: response redaction, schema compilers loaded on first use. What other folders may use of it.
export { registerRedaction, unredacted } from './redaction.js';
export { lazySchemaController } from './compilers.js';
export { dropEmptyBodyType } from './empty-body.js';
