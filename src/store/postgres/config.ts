// The PostgresConfig resource: `store/v1`, cluster-wide, wrapped JSON.

export const PG_TYPE = 'PostgresConfig';
const PG_API_VERSION = 'store/v1';

export interface PostgresConfig {
  readonly type: typeof PG_TYPE;
  readonly api_version: typeof PG_API_VERSION;
  /** labels and annotations: any JSON object or array, kept as sent. */
  readonly metadata: { name: string; created_by?: string; labels?: object; annotations?: object };
  readonly spec: {
    dsn: string;
    pool_size?: number;
    strict?: boolean;
    max_conn_lifetime?: string;
    max_idle_conns?: number;
    batch_buffer?: number;
    batch_size?: number;
    batch_workers?: number;
    enable_round_robin?: boolean;
  };
}

const INTEGERS = ['pool_size', 'max_idle_conns', 'batch_buffer', 'batch_size', 'batch_workers'] as const;
const BOOLEANS = ['strict', 'enable_round_robin'] as const;
const KNOWN = new Set<string>(['dsn', 'max_conn_lifetime', ...INTEGERS, ...BOOLEANS]);
const NAME = /^[\w.\-:]{1,255}$/;
const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The resource as stored, or the first reason it is invalid. */
export function parsePostgresConfig(body: unknown, urlName?: string): { config: PostgresConfig } | { problem: string } {
  if (!isRecord(body)) return { problem: 'request body must be a JSON object (a wrapped PostgresConfig)' };
  const b = body;
  if (b.type !== undefined && b.type !== PG_TYPE) return { problem: `type must be ${PG_TYPE}` };
  if (b.api_version !== undefined && b.api_version !== PG_API_VERSION) return { problem: `api_version must be ${PG_API_VERSION}` };
  // Metadata that is a list has no name, labels or annotations: read as none.
  const metadata = isRecord(b.metadata) ? b.metadata : {};
  const name = metadata.name ?? urlName;
  if (typeof name !== 'string' || !NAME.test(name)) return { problem: 'metadata.name must be 1 to 255 letters, digits, _ . - :' };
  if (urlName !== undefined && name !== urlName) return { problem: `the name of the resource (${name}) does not match the name of the URI (${urlName})` };
  const spec = b.spec;
  if (!isRecord(spec)) return { problem: 'spec must be an object' };
  for (const key of Object.keys(spec)) if (!KNOWN.has(key)) return { problem: `spec.${key} is not a PostgresConfig field` };
  if (typeof spec.dsn !== 'string' || spec.dsn.trim() === '') return { problem: 'spec.dsn is required' };
  for (const key of INTEGERS) {
    const value = spec[key];
    if (value !== undefined && !(typeof value === 'number' && Number.isInteger(value) && value >= 0))
      return { problem: `spec.${key} must be a non-negative integer` };
  }
  for (const key of BOOLEANS) if (spec[key] !== undefined && typeof spec[key] !== 'boolean') return { problem: `spec.${key} must be true or false` };
  if (spec.max_conn_lifetime !== undefined && typeof spec.max_conn_lifetime !== 'string')
    return { problem: 'spec.max_conn_lifetime must be a duration string' };
  const meta: PostgresConfig['metadata'] = { name };
  for (const key of ['labels', 'annotations'] as const) if (metadata[key] && typeof metadata[key] === 'object') Object.assign(meta, { [key]: metadata[key] });
  // Every spec field is checked above (dsn named again: the one the type requires).
  return { config: { type: PG_TYPE, api_version: PG_API_VERSION, metadata: meta, spec: { ...spec, dsn: spec.dsn } } };
}
