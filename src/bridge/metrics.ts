import type { Outbox } from '../store/index.js';

export interface BridgeView {
  readonly status: () => string;
  readonly outbox: Outbox;
}

/** The bridge's figures in Prometheus text exposition format. */
export function prometheusText(view: BridgeView | null, nowMs: number): string {
  if (!view) return '# checkbridge: no bridge configured\n';
  const s = view.outbox.stats(nowMs);
  const lines = [
    ['checkbridge_bridge_outbox_depth', 'gauge', 'Events waiting in the outbox', s.depth],
    ['checkbridge_bridge_outbox_oldest_age_seconds', 'gauge', 'Age of the oldest waiting event', s.oldest_age_s],
    ['checkbridge_bridge_delivered_total', 'counter', 'Events the backend accepted', s.delivered],
    ['checkbridge_bridge_dead_lettered_total', 'counter', 'Events the backend refused', s.dead_lettered],
    ['checkbridge_bridge_up', 'gauge', '1 while the backend accepts events', view.status() === 'delivering' ? 1 : 0],
  ] as const;
  return lines.map(([name, type, help, value]) => `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${name} ${value}\n`).join('');
}

export function bridgeSummary(view: BridgeView | null, nowMs: number): Record<string, unknown> | null {
  return view ? { status: view.status(), ...view.outbox.stats(nowMs) } : null;
}
