// The server role: the one event intake, keepalives, handling, check requests. What other folders may use of it.
export { SEVERITIES, aggregateMembers, groupBy, memberNames, resultsOfSeverity, summarize, type Severity } from './aggregates.js';
export { removeClient, resolveEvent } from './client-removal.js';
export { HandlerPipeline, runPipelines } from './handling/index.js';
export { type Spawner } from './handling/mutate.js';
export { keepaliveCheck, monitorKeepalives, monitorTtl, receiveKeepalive } from './keepalives.js';
export { legacyToV2Writer } from './legacy-to-v2.js';
export { CheckRequestPublisher } from './check-request-publisher.js';
export { silenceKeys } from './silencing.js';
export { Intake, isV2Event, type EventIntake, type IntakeEvent } from './intake.js';
export { consumeFleet } from './fleet-consumer.js';
export { CheckRequestTargets, type RequestTarget, type TargetKind, type V2CheckRequest } from './check-request-targets.js';
export { legacyRequestOf, legacyTargets } from './legacy-check-targets.js';
export { relayedTargets, type RosterEntry } from './relayed-targets.js';
export { LegacyAgentChecks } from './legacy-agent-checks.js';
export { V2CheckScheduler, buildV2Request, timingOfConfig, type ExecuteOptions, type ExecuteOutcome, type NextExecution } from './v2-check-scheduler.js';
export { V2TtlMonitor } from './v2-ttl.js';
