export { HandlerPipeline, type PipelineDeps, type PipelineCounters } from './pipeline.js';
export { filterEvent } from './filter.js';
export { occurrencesFilter } from './builtin-filters.js';
export { eventJson, type Spawner } from './mutate.js';
export { runPipelines } from './v2-pipelines.js';
export { Handling, type HandlingDeps } from './service.js';
