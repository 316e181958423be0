// The pure legacy (Sensu Core 1.x) event model: event rules, result validation, handler sets, the entity limit.
export {
  HISTORY_LENGTH,
  truncateOutput,
  shouldTruncate,
  weightedStateChange,
  totalStateChange,
  isFlapping,
  buildEvent,
  registryUpdate,
} from './event-model.js';
export type { StateChangeRule, EventAction, StoredEvent, EventDraft, RegistryUpdate } from './event-model.js';
export { prepareResult, type Prepared } from './result-validation.js';
export { EXTENSION_HANDLERS, handlerNames, resolveHandlers, type Handler, type Resolution } from './handler-sets.js';
export { lintConfiguration, type LintFinding } from './lint.js';
export { EntityLimitError, atEntityLimit, entityLimitMessage } from './entity-limit.js';
export { RESULT_ID_RETENTION_MS, isClientResultId } from './result-id.js';
