export { HandlerPipeline, type PipelineDeps, type PipelineCounters } from './pipeline.js';
export { resolveHandlers, handlerNames, type Handler } from '../../legacy/index.js';
export { filterEvent } from './filter.js';
export { occurrencesFilter } from './builtin-filters.js';
export { eventJson } from './mutate.js';
export { runPipelines } from './v2-pipelines.js';
