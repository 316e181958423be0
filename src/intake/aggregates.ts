import type { StateStore, StoredResult } from '../store/index.js';

export const SEVERITIES = ['ok', 'warning', 'critical', 'unknown'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Any status outside 0–2 is unknown: legacy wrapped a negative one to a severity (docs/legacy-quirks.md). */
export function severityOf(status: unknown): Severity {
  return status === 0 ? 'ok' : status === 1 ? 'warning' : status === 2 ? 'critical' : 'unknown';
}

/** The aggregate names a check result joins: `aggregates`, else a string `aggregate`, else the check name. */
export function aggregateNames(check: Record<string, unknown>): string[] {
  if (!check.aggregates && !check.aggregate) return [];
  const names = check.aggregates ?? (typeof check.aggregate === 'string' ? check.aggregate : check.name);
  return (Array.isArray(names) ? names : [names]).filter((n): n is string => typeof n === 'string' && n !== '');
}

export interface AggregateMember {
  readonly client: string;
  readonly check: string;
  /** Null when the stored result is gone (the member is then dropped, as legacy did). */
  readonly result: StoredResult | null;
}

/** The `client:check` members of an aggregate, without reading their results. */
export function memberNames(store: StateStore, name: string): { client: string; check: string; member: string }[] {
  return store.aggregates.members(name).map((member) => {
    const at = member.indexOf(':');
    return { client: member.slice(0, at), check: member.slice(at + 1), member };
  });
}

/** The members of an aggregate with their stored (truncated) results; missing results leave the set. */
export function aggregateMembers(store: StateStore, name: string): AggregateMember[] {
  return memberNames(store, name).map(({ client, check, member }) => {
    const result = store.getResult(client, check);
    if (!result) store.aggregates.remove(name, member);
    return { client, check, result };
  });
}

const fresh = (result: StoredResult, oldest: number | null) => oldest === null || typeof result.check.executed !== 'number' || result.check.executed >= oldest;

/** GET /aggregates/:name: unique clients and checks (missing results included), results by severity, stale ones counted apart. */
export function summarize(members: readonly AggregateMember[], oldest: number | null) {
  const results = { ok: 0, warning: 0, critical: 0, unknown: 0, total: 0, stale: 0 };
  for (const member of members) {
    if (!member.result) continue;
    if (!fresh(member.result, oldest)) {
      results.stale++;
      continue;
    }
    results[severityOf(member.result.check.status)]++;
    results.total++;
  }
  return { clients: new Set(members.map((m) => m.client)).size, checks: new Set(members.map((m) => m.check)).size, results };
}

/** GET /aggregates/:name/results/:severity: per check, the outputs with their clients. */
export function resultsOfSeverity(members: readonly AggregateMember[], severity: Severity, oldest: number | null) {
  const byCheck = new Map<string, Map<string, string[]>>();
  for (const member of members) {
    const result = member.result;
    if (!result || !fresh(result, oldest) || severityOf(result.check.status) !== severity) continue;
    const outputs = byCheck.get(member.check) ?? new Map<string, string[]>();
    byCheck.set(member.check, outputs);
    const output = String(result.check.output ?? '');
    outputs.set(output, [...(outputs.get(output) ?? []), member.client]);
  }
  return [...byCheck].map(([check, outputs]) => ({ check, summary: [...outputs].map(([output, clients]) => ({ output, total: clients.length, clients })) }));
}

export function groupBy(members: readonly AggregateMember[], key: 'client' | 'check') {
  const other = key === 'client' ? 'check' : 'client';
  const groups = new Map<string, string[]>();
  for (const member of members) groups.set(member[key], [...(groups.get(member[key]) ?? []), member[other]]);
  return [...groups].map(([name, list]) => ({ name, [key === 'client' ? 'checks' : 'clients']: list }));
}
