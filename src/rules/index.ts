// The rule book: the name rules, Sensu Go's enumerations, each kind's validation and the redaction policy, written once
// for every door, `compile` and the config checks, so a broken rule reads the same wherever it is broken.
export {
  SENSU_NAME,
  LEGACY_NAME,
  SUBSCRIPTION_NAME,
  SILENCED_ID,
  asLegacyName,
  assetNameProblem,
  asSensuName,
  clientNameProblem,
  isLegacyName,
  isSensuName,
  legacyNameProblem,
  sensuNameProblem,
  silencedNameProblem,
  unanchored,
} from './names.js';
export {
  EVENT_ENTITY_CLASSES,
  FILTER_ACTIONS,
  HANDLER_TYPES,
  METRIC_FORMATS,
  MUTATOR_TYPES,
  SUBDUE_REPEATS,
  isOneOf,
  type MetricFormat,
} from './enumerations.js';
export { expressionsProblem } from './expressions.js';
export { checkConfigProblem } from './check.js';
export { handlerProblem } from './handler.js';
export { hookProblem } from './hook.js';
export { mutatorProblem } from './mutator.js';
export { filterProblem } from './filter.js';
export { pipelineProblem } from './pipeline.js';
export { entityProblem } from './entity.js';
export { silencedProblem } from './silenced.js';
export { eventProblem } from './event.js';
export { KIND_RULES, kindProblem, type KindRule } from './kinds.js';
export { DEFAULT_KEYS, DEFAULT_REDACT_KEYS, ownRedactList, redactKeysWith, type RedactKeys } from './redaction.js';
