// output_metric_format parsers: a bad line is skipped and reported, the rest kept.
import { metricTagList, type MetricTag } from './tags.js';
import type { MetricFormat } from '../rules/index.js';

export type { MetricTag } from './tags.js';

export interface MetricPoint {
  readonly name: string;
  readonly value: number;
  /** Epoch seconds. */
  readonly timestamp: number;
  readonly tags: readonly MetricTag[];
}

export interface MetricParse {
  readonly points: MetricPoint[];
  readonly errors: { line: number; text: string; reason: string }[];
}

type LineParser = (line: string, executed: number) => MetricPoint[];

const num = (text: string | undefined): number => {
  if (text === undefined || text.trim() === '' || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^[-+]?(Inf|NaN)$/i.test(text))
    throw new Error(`not a number: ${text ?? ''}`);
  return Number(text);
};

const graphite: LineParser = (line) => {
  const fields = line.trim().split(/\s+/);
  if (fields.length !== 3) throw new Error('expected "name value timestamp"');
  return [{ name: fields[0]!, value: num(fields[1]), timestamp: Math.trunc(num(fields[2])), tags: [] }];
};

function influxTimestamp(text: string | undefined, executed: number): number {
  if (text === undefined) return executed;
  const n = num(text);
  return n > 1e14 ? Math.trunc(n / 1e9) : Math.trunc(n); // nanoseconds (the format's unit) or seconds
}

const influx: LineParser = (line, executed) => {
  const [head, fieldSet, ts] = line.trim().split(/\s+/);
  if (!head || !fieldSet) throw new Error('expected "measurement[,tags] fields [timestamp]"');
  const [measurement, ...tagPairs] = head.split(',');
  const tags = tagPairs.map((pair) => {
    const [name, value] = pair.split('=');
    if (!name || value === undefined) throw new Error(`bad tag ${pair}`);
    return { name, value };
  });
  const timestamp = influxTimestamp(ts, executed);
  return fieldSet.split(',').map((field) => {
    const [name, value] = field.split('=');
    if (!name || value === undefined) throw new Error(`bad field ${field}`);
    return { name: `${measurement}.${name}`, value: num(value.replace(/i$/, '')), timestamp, tags };
  });
};

const opentsdb: LineParser = (line) => {
  const fields = line
    .trim()
    .replace(/^put\s+/, '')
    .split(/\s+/);
  if (fields.length < 3) throw new Error('expected "metric timestamp value [tag=value ...]"');
  const tags = fields.slice(3).map((pair) => {
    const [name, value] = pair.split('=');
    if (!name || value === undefined) throw new Error(`bad tag ${pair}`);
    return { name, value };
  });
  const ts = num(fields[1]);
  return [{ name: fields[0]!, value: num(fields[2]), timestamp: Math.trunc(ts > 1e11 ? ts / 1000 : ts), tags }];
};

const prometheus: LineParser = (line, executed) => {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+(-?\d+))?\s*$/.exec(line.trim());
  if (!m) throw new Error('expected "name{labels} value [timestamp_ms]"');
  const tags: MetricTag[] = [];
  const labelRe = /\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*,?/gy;
  const labels = m[2] ?? '';
  let consumed = 0;
  for (let lm = labelRe.exec(labels); lm; lm = labelRe.exec(labels)) {
    tags.push({ name: lm[1]!, value: lm[2]!.replace(/\\(.)/g, (_x, c: string) => (c === 'n' ? '\n' : c)) });
    consumed = labelRe.lastIndex;
  }
  if (labels.slice(consumed).trim() !== '') throw new Error(`bad labels ${labels}`);
  return [{ name: m[1]!, value: num(m[3]), timestamp: m[4] ? Math.trunc(Number(m[4]) / 1000) : executed, tags }];
};

// Nagios perfdata follows the first "|": label=value[UOM];warn;crit;min;max, labels may be quoted.
function parseNagios(output: string, executed: number): MetricParse {
  const points: MetricPoint[] = [];
  const errors: MetricParse['errors'] = [];
  const pipe = output.indexOf('|');
  if (pipe < 0) return { points, errors };
  const perf = output
    .slice(pipe + 1)
    .split('\n')
    .join(' ');
  const re = /('(?:[^']|'')+'|[^\s=']+)=(\S+)/g;
  for (let m = re.exec(perf); m; m = re.exec(perf)) {
    const name = m[1]!.replace(/^'|'$/g, '').replace(/''/g, "'");
    const raw = m[2]!.split(';')[0]!;
    const value = /^[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?/.exec(raw);
    if (!value) errors.push({ line: 1, text: m[0], reason: `bad value ${raw}` });
    else points.push({ name, value: Number(value[0]), timestamp: executed, tags: [] });
  }
  return { points, errors };
}

const LINE_PARSERS: Record<Exclude<MetricFormat, 'nagios_perfdata'>, LineParser> = {
  graphite_plaintext: graphite,
  influxdb_line: influx,
  opentsdb_line: opentsdb,
  prometheus_text: prometheus,
};

/** Extracts points; `extraTags` (output_metric_tags, either form) are added to every point. */
export function parseMetrics(format: string, output: string, executed: number, extraTags: unknown = []): MetricParse {
  let parsed: MetricParse;
  if (format === 'nagios_perfdata') {
    parsed = parseNagios(output, executed);
  } else {
    const parser = LINE_PARSERS[format as keyof typeof LINE_PARSERS];
    if (!parser) return { points: [], errors: [{ line: 0, text: '', reason: `unknown output_metric_format ${format}` }] };
    parsed = { points: [], errors: [] };
    output.split('\n').forEach((text, index) => {
      if (text.trim() === '' || (format === 'prometheus_text' && text.trim().startsWith('#'))) return;
      try {
        parsed.points.push(...parser(text, executed));
      } catch (error) {
        parsed.errors.push({ line: index + 1, text, reason: (error as Error).message });
      }
    });
  }
  const tags = metricTagList(extraTags);
  if (tags.length > 0) parsed.points.forEach((p, i) => (parsed.points[i] = { ...p, tags: [...p.tags, ...tags] }));
  return parsed;
}
