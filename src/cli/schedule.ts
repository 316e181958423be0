import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { definitionOf, type Settings } from '../config/index.js';
import { timingOf, instantsBetween, nextInstant, spreadSeconds } from '../schedule/index.js';
import { isSubdued } from '../schedule/index.js';
import { planProxyRequests } from '../schedule/index.js';
import { parseConfigText } from '../config/index.js';
import { CheckbridgeError } from '../errors.js';
import { withSourceOptions, loadValidOrReport, type SourceFlags } from './sources.js';
import { parseDuration } from '../time/index.js';

interface Plan {
  from: string;
  to: string;
  checks: { check: string; subdued: boolean; next: string | null }[];
  executions: { check: string; target: string; at: string }[];
  skipped: { check: string; target: string; at: string | null; reason: string }[];
}

const iso = (ms: number) => new Date(ms).toISOString();

function readClients(path: string): Record<string, unknown>[] {
  const parsed = parseConfigText(readFileSync(path, 'utf8'));
  if (!parsed.ok || !Array.isArray(parsed.data)) throw new CheckbridgeError('CB_CLI_CLIENT_FILE', `${path}: expected a JSON array of clients`);
  return parsed.data as Record<string, unknown>[];
}

/** The plan of every check over [from, to) without running anything. */
function planSchedule(settings: Settings, from: number, to: number, clients: Record<string, unknown>[], zone?: string): Plan {
  const plan: Plan = { from: iso(from), to: iso(to), checks: [], executions: [], skipped: [] };
  const clientName = String(settings.client.name);
  for (const check of Object.values(settings.checks).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const timing = timingOf(check, clientName);
    const targets = check.standalone ? [clientName] : [...((check.subscribers ?? []) as string[])];
    const next = check.publish === false ? null : nextInstant(timing, from);
    plan.checks.push({ check: check.name, subdued: isSubdued(check, from, zone), next: next === null ? null : iso(next) });
    const instants = instantsBetween(timing, from, to);
    if (check.publish === false) {
      for (const target of targets) {
        if (instants.length === 0) plan.skipped.push({ check: check.name, target, at: null, reason: 'publish false' });
        for (const at of instants) plan.skipped.push({ check: check.name, target, at: iso(at), reason: 'publish false' });
      }
      continue;
    }
    for (const at of instants) {
      if (isSubdued(check, at, zone)) {
        for (const target of targets) plan.skipped.push({ check: check.name, target, at: iso(at), reason: 'subdued' });
        continue;
      }
      if (check.proxy_requests && !check.standalone) {
        const proxy = planProxyRequests(definitionOf(settings, check.name), clients, spreadSeconds(timing, at));
        for (const target of proxy.targets) plan.executions.push({ check: check.name, target: String(target.client.name), at: iso(at + target.delayMs) });
        for (const skip of proxy.skipped)
          plan.skipped.push({ check: check.name, target: skip.client, at: iso(at), reason: `unmatched tokens: ${skip.unmatched.join(', ')}` });
        continue;
      }
      for (const target of targets) plan.executions.push({ check: check.name, target, at: iso(at) });
    }
  }
  plan.executions.sort(byTime);
  plan.skipped.sort(byTime);
  return plan;
}

// In time order (an instant-less skip last), then by check and target.
function byTime(a: { at: string | null; check: string; target: string }, b: { at: string | null; check: string; target: string }): number {
  const at = (a.at ?? '~').localeCompare(b.at ?? '~');
  return at || a.check.localeCompare(b.check) || a.target.localeCompare(b.target);
}

/** The plan as text: a header, then executions and skips together in time order. */
function planText(plan: Plan): string {
  const rows = [...plan.executions.map((e) => ({ ...e, note: '' })), ...plan.skipped.map((s) => ({ ...s, note: `skipped: ${s.reason}` }))].sort(byTime);
  const header = `executions from ${plan.from} to ${plan.to}: ${plan.executions.length} planned, ${plan.skipped.length} skipped\nAT  CHECK  TARGET  NOTE\n`;
  return header + rows.map((r) => `${r.at ?? '-'}  ${r.check}  ${r.target}${r.note ? `  ${r.note}` : ''}\n`).join('');
}

export function registerSchedule(program: Command): void {
  withSourceOptions(program.command('schedule'))
    .description('print the plan of executions in a window without running anything')
    .argument('[sources...]', 'conf.d directories or files')
    .option('--at <iso>', 'start of the window (ISO-8601), default now')
    .option('--for <duration>', 'length of the window (90s, 15m, 1h30m, PT1H)', '1h')
    .option('--clients <file>', 'a JSON array of registry clients to plan proxy requests against (default: the configured client)')
    .option('--json', 'print the plan as JSON')
    .action((positional: string[], flags: SourceFlags & { at?: string; for: string; clients?: string; json?: boolean }) => {
      const from = flags.at ? Date.parse(flags.at) : Date.now();
      if (Number.isNaN(from)) throw new CheckbridgeError('CB_CLI_USAGE', `--at: not an ISO-8601 instant: ${flags.at}`);
      const length = parseDuration(flags.for);
      if (length === null || length <= 0) throw new CheckbridgeError('CB_CLI_USAGE', `--for: not a duration: ${flags.for}`);
      const settings = loadValidOrReport(flags, positional);
      if (!settings) return;
      const clients = flags.clients ? readClients(flags.clients) : [settings.client as Record<string, unknown>];
      const plan = planSchedule(settings, from, from + length, clients);
      if (flags.json) {
        process.stdout.write(JSON.stringify(plan, null, 2) + '\n');
        return;
      }
      process.stdout.write(planText(plan));
    });
}
