// Sensu Go's enumerations (sensu/core v2), each written once; the messages list them in this order.

/** A check's `output_metric_format` (also what the metric extraction parses). */
export const METRIC_FORMATS = ['nagios_perfdata', 'graphite_plaintext', 'opentsdb_line', 'influxdb_line', 'prometheus_text'] as const;
export type MetricFormat = (typeof METRIC_FORMATS)[number];

/** A Handler's `type`: Sensu Go 6.12 refuses any other (`grpc` included). */
export const HANDLER_TYPES = ['pipe', 'tcp', 'udp', 'set'] as const;

/** A Mutator's `type` (empty: pipe). */
export const MUTATOR_TYPES = ['pipe', 'javascript'] as const;

/** An EventFilter's `action`. */
export const FILTER_ACTIONS = ['allow', 'deny'] as const;

/** The entity classes an event may carry: agents, proxies, and the service and backend entities Sensu Go makes itself. */
export const EVENT_ENTITY_CLASSES = ['agent', 'proxy', 'service', 'backend'] as const;

/** A subdue window's `repeat` periods (Sensu Go 6.7 and later). */
export const SUBDUE_REPEATS = [
  'annually',
  'monthly',
  'weekly',
  'weekdays',
  'weekends',
  'daily',
  'sundays',
  'mondays',
  'tuesdays',
  'wednesdays',
  'thursdays',
  'fridays',
  'saturdays',
] as const;

/** Whether `value` is one of `list` (a typed `includes` for a value of any type). */
export const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T => (list as readonly unknown[]).includes(value);
