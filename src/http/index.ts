// HTTP plumbing shared by the listeners: response redaction. What other folders may use of it.
export { registerRedaction, unredacted } from './redaction.js';
