/** Who does the once-per-cluster work (reference §10.13): told at once when this server gains or loses it. */
export interface Leadership {
  /** Starts taking part; `onChange` hears every transition, in order. */
  start(onChange: (leader: boolean) => void): void;
  isLeader(): boolean;
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

  async close(): Promise<void> {}
}
