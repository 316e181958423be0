import type { MetricPoint } from '../metrics/index.js';

/** What a check execution (or a socket, HTTP or API submission) hands to result intake. */
export interface CheckResult {
  /** Name of the client that produced the result. */
  readonly client: string;
  readonly check: Record<string, unknown> & {
    readonly name: string;
    readonly output: string;
    readonly status: number;
    readonly executed: number;
  };
  readonly signature?: string;
  /** Points extracted with output_metric_format, when the check has one. */
  readonly metrics?: { readonly handlers: readonly string[]; readonly points: readonly MetricPoint[] };
  /** Made by the server from its own records (monitors, resolve, removal), not received: it may name any client's record. */
  readonly fromServer?: true;
  /** The id a checkbridge client gave it on the wire (`result_id`): a re-sent copy of a result already handled is dropped. */
  readonly id?: string;
}

/** The single door every result passes through: executions, the client socket, HTTP and the API alike. */
export interface ResultIntake {
  submit(result: CheckResult): Promise<void>;
}

export const SEVERITIES = ['ok', 'warning', 'critical', 'unknown'] as const;

/** Any status outside 0–2 is unknown: legacy wrapped a negative one to a severity (docs/legacy-quirks.md). */
export function severityOf(status: number): (typeof SEVERITIES)[number] {
  return status >= 0 && status <= 2 && Number.isInteger(status) ? SEVERITIES[status]! : 'unknown';
}

export function round3(seconds: number): number {
  return Number(seconds.toFixed(3));
}
