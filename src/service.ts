/** One part of the daemon: started in the list's order, stopped in reverse, all within one grace. */
export interface Service {
  readonly name: string;
  start(): Promise<void>;
  /** Also called after a failed start-up, whether or not this one started: releases whatever it holds. */
  stop(deadline: number): Promise<void>;
  /** Called once, before start: `report` is how the service says it can no longer do its work. */
  onFailure?(report: (error: Error) => void): void;
}

/** What a service keeps to report a failure after start: the first one reaches whoever listens, then or later. */
export class FailureReport {
  private listeners: ((error: Error) => void)[] = [];
  private error: Error | null = null;

  listen(report: (error: Error) => void): void {
    this.listeners.push(report);
    if (this.error) report(this.error);
  }

  fail(error: Error): void {
    if (this.error) return;
    this.error = error;
    for (const report of this.listeners) report(error);
  }
}

/** Whether `work` settled within `ms` (the timer never outlives the answer). */
export function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms))));
  return Promise.race([work.then(() => true), late]).finally(() => clearTimeout(timer));
}
