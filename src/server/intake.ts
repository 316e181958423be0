import type { CheckResult } from '../execute/result.js';
import type { Publish } from './v2-events.js';

/** The single door every result passes through: executions, the client socket, HTTP and the API alike. */
export interface ResultIntake {
  submit(result: CheckResult): Promise<void>;
}

/** The same door for a v2 event (the v2 API's PUT and POST): answered once it is stored, or with why it was not. */
export interface EventIntake {
  submitEvent(namespace: string, body: Record<string, any>, createdBy?: string): Promise<Publish>;
}
