export { parseMetrics, type MetricPoint, type MetricTag, type MetricParse } from './parse.js';
export { metricTagList } from './tags.js';
