// The intake: the one door every result and event goes through, and the event rules' application. What other folders may use of it.
export { SEVERITIES, aggregateMembers, groupBy, memberNames, resultsOfSeverity, severityOf, summarize, type Severity } from './aggregates.js';
export { removeClient, resolveEvent } from './client-removal.js';
export { kickOnLegacyEvents, legacyToV2Writer } from './legacy-to-v2.js';
export { applySilencing, silenceKeys } from './silencing.js';
export { withoutExpiredTombstone, type Processed } from './processor.js';
export { Intake, isV2Event, type EventIntake, type IntakeEvent } from './intake.js';
export { IntakeFull } from './backlog.js';
export { EntityGate, entityRefusal, warnPastEntityLimit } from './entity-gate.js';
export { openIntake, type EventStores, type IntakeOptions } from './open-intake.js';
export { IntakeTopics, Topic, type EntityChange } from './topics.js';
