// The migration rehearsal: what the compiled configuration would do in Sensu Go with each live legacy event. What other folders may use of it.
export { Rehearsal, type RehearsalDeps } from './rehearsal.js';
export { formatRehearsal, summarizeRehearsal, divergedAny, type RehearsalFormat } from './report.js';
export { configurationDigest } from './plan.js';
