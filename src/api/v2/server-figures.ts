import { bridgeSummary, prometheusText, type BridgeView } from '../../bridge/index.js';

const AGENTS_METRIC_HELP =
  '# HELP checkbridge_agents_connected Sensu Go agents connected to the agent WebSocket now.\n# TYPE checkbridge_agents_connected gauge\n';

export interface ServerFiguresDeps {
  /** Sensu Go agents connected to the agent WebSocket now. */
  readonly agents: { connected(): number };
  /** The outbox sender to a remote v2 backend, or null without one. */
  readonly bridge: BridgeView | null;
  /** The process and runtime families and Sensu Go's event counter, in Prometheus text. */
  readonly process: { text(): Promise<string> };
}

/** What the v2 API says of this server beside Sensu Go's own: in /health's annotations and in /metrics. */
export class ServerFigures {
  constructor(private readonly deps: ServerFiguresDeps) {}

  /** The connected agents and, with a bridge, its figures, each under `checkbridge.`. */
  readonly annotations = (): Record<string, string> => {
    const { agents, bridge } = this.deps;
    return {
      'checkbridge.agents.connected': String(agents.connected()),
      ...(bridge ? Object.fromEntries(Object.entries(bridgeSummary(bridge, Date.now()) ?? {}).map(([k, v]) => [`checkbridge.bridge.${k}`, String(v)])) : {}),
    };
  };

  /** The bridge's families (or a line saying there is none), the connected agents, then the process's. */
  readonly metrics = async (): Promise<string> => {
    const { agents, bridge, process } = this.deps;
    return `${prometheusText(bridge, Date.now())}${AGENTS_METRIC_HELP}checkbridge_agents_connected ${agents.connected()}\n${await process.text()}`;
  };
}
