/** One live server of the cluster, as legacy `/info` listed its server registry. */
export interface ServerEntry {
  /** `<name>:<pid>` */
  readonly id: string;
  readonly address: string | null;
  /** The legacy task names this server holds: all three for the elected one, none for the others. */
  readonly tasks: readonly string[];
  readonly timestamp: number;
}

export const TASKS = ['check_request_publisher', 'client_monitor', 'check_result_monitor'] as const;

/** Who does the once-per-cluster work: told at once when this server gains or loses it. */
export interface Leadership {
  /** Starts taking part; `onChange` hears every transition, in order. */
  start(onChange: (leader: boolean) => void): void;
  isLeader(): boolean;
  /** The servers taking part now; empty for a server alone. */
  servers(): Promise<ServerEntry[]>;
  /** Leaves the election (a leader releases its lock); `onChange` is not called again. */
  close(): Promise<void>;
}

/** A server alone (no shared store): always the elected one, from the start. */
export class AlwaysLeader implements Leadership {
  start(onChange: (leader: boolean) => void): void {
    onChange(true);
  }

  isLeader(): boolean {
    return true;
  }

  async servers(): Promise<ServerEntry[]> {
    return [];
  }

  async close(): Promise<void> {}
}
