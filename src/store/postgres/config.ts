// The PostgresConfig resource: `store/v1`, cluster-wide, wrapped JSON.
import type { Json } from '../../json.js';

export const PG_TYPE = 'PostgresConfig';
const PG_API_VERSION = 'store/v1';

export interface PostgresConfig {
  readonly type: typeof PG_TYPE;
  readonly api_version: typeof PG_API_VERSION;
  readonly metadata: { name: string; created_by?: string; labels?: Json; annotations?: Json };
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

/** The resource as stored, or the first reason it is invalid. */
export function parsePostgresConfig(body: unknown, urlName?: string): { config: PostgresConfig } | { problem: string } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { problem: 'request body must be a JSON object (a wrapped PostgresConfig)' };
  const b = body as Json;
  if (b.type !== undefined && b.type !== PG_TYPE) return { problem: `type must be ${PG_TYPE}` };
  if (b.api_version !== undefined && b.api_version !== PG_API_VERSION) return { problem: `api_version must be ${PG_API_VERSION}` };
  const metadata = (b.metadata && typeof b.metadata === 'object' ? b.metadata : {}) as Json;
  const name = metadata.name ?? urlName;
  if (typeof name !== 'string' || !NAME.test(name)) return { problem: 'metadata.name must be 1 to 255 letters, digits, _ . - :' };
  if (urlName !== undefined && name !== urlName) return { problem: `the name of the resource (${name}) does not match the name of the URI (${urlName})` };
  const spec = b.spec;
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return { problem: 'spec must be an object' };
  for (const key of Object.keys(spec)) if (!KNOWN.has(key)) return { problem: `spec.${key} is not a PostgresConfig field` };
  if (typeof spec.dsn !== 'string' || spec.dsn.trim() === '') return { problem: 'spec.dsn is required' };
  for (const key of INTEGERS)
    if (spec[key] !== undefined && !(Number.isInteger(spec[key]) && spec[key] >= 0)) return { problem: `spec.${key} must be a non-negative integer` };
  for (const key of BOOLEANS) if (spec[key] !== undefined && typeof spec[key] !== 'boolean') return { problem: `spec.${key} must be true or false` };
  if (spec.max_conn_lifetime !== undefined && typeof spec.max_conn_lifetime !== 'string')
    return { problem: 'spec.max_conn_lifetime must be a duration string' };
  const meta: PostgresConfig['metadata'] = { name };
  for (const key of ['labels', 'annotations'] as const) if (metadata[key] && typeof metadata[key] === 'object') Object.assign(meta, { [key]: metadata[key] });
  return { config: { type: PG_TYPE, api_version: PG_API_VERSION, metadata: meta, spec: { ...spec } } };
}
