export { HandlerPipeline, type PipelineDeps, type PipelineCounters, type LegacyDecision } from './pipeline.js';
export { filterEvent } from './filter.js';
export { occurrencesFilter, V2_BUILT_IN_FILTERS } from './builtin-filters.js';
export { eventJson, type Spawner } from './mutate.js';
export { runPipelines } from './v2-pipelines.js';
export { Handling, type HandlingDeps, type HandlingObserver } from './service.js';
export { type Filtered } from './filter.js';
