// The pure v2 (Sensu Go) event model: event shape, validation, the event-store update, filters, selectors, translation from legacy.
export { errorBodyMessage } from './error-body.js';
export { filterAllows, isResolution } from './event-filters.js';
export { redactedMetadata, serveEntity, shapeEvent, shapeMetadata } from './event-shape.js';
export { HISTORY_LENGTH, updateEvent, updateOwnedEvent } from './event-update.js';
export {
  APIKEY_FIELDS,
  NAMESPACE_FIELDS,
  PROVIDER_FIELDS,
  RBAC_FIELDS,
  RESOURCE_FIELDS,
  SECRET_FIELDS,
  USER_FIELDS,
  fieldSet,
  type FieldSet,
} from './resource-fields.js';
export { EVENT_FIELDS, SelectorError, matchesSelector, parseSelector, type Op } from './selectors.js';
export { silencedBy } from './silencing.js';
export { legacyCheckOf, legacyEventOf, translateClient, translateEvent } from './translate.js';
export { eventProblem } from '../rules/index.js';
export { typeProblem, WIRE_TYPES } from './wire-types.js';
export { isObject, type WireType, type FieldSpec } from './field-spec.js';
export type * from './generated/interfaces.js';
export { COREV2_PROTO } from './generated/corev2-proto.js';
export { decodeAs, serveAs, type Decoded, type TypeName } from './go-json.js';
export { decodeEvent, typedEvent, type DecodedEvent } from './decoded-event.js';
