// The two HTTP APIs (legacy REST and v2), built by the composition root. What other folders may use of it.
export { buildLegacyApi } from './legacy/server.js';
export { buildV2Api } from './v2/server.js';
export { ServerFigures } from './v2/server-figures.js';
export { serverMetrics } from './v2/server-metrics.js';
