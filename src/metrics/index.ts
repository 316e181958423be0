export { parseMetrics, METRIC_FORMATS, type MetricPoint, type MetricTag, type MetricParse, type MetricFormat } from './parse.js';
export { metricTagList } from './tags.js';
