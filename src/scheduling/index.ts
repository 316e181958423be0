// Scheduling: the legacy check-request publisher, the v2 check scheduler and the targets of both client kinds.
export { CheckRequestPublisher } from './check-request-publisher.js';
export { CheckRequestTargets, type RequestTarget, type TargetKind, type V2CheckRequest } from './check-request-targets.js';
export { legacyRequestOf, legacyTargets } from './legacy-check-targets.js';
export { relayedTargets, type RosterEntry } from './relayed-targets.js';
export { LegacyAgentChecks } from './legacy-agent-checks.js';
export { V2CheckScheduler, type ExecuteOptions, type ExecuteOutcome, type NextExecution } from './v2-check-scheduler.js';
export { buildV2Request, timingOfConfig } from './v2-check-config.js';
export { Scheduling, type SchedulingDeps } from './service.js';
export { DutyGate, ServerDuties, type ServerDutiesDeps } from './server-duties.js';
