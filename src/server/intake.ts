import type { Publish } from './v2-events.js';

// Kept only for client/http-socket.ts (edited by another helper this round); the door is defined beside CheckResult.
export type { ResultIntake } from '../execute/result.js';

/** The same door for a v2 event (the v2 API's PUT and POST): answered once it is stored, or with why it was not. */
export interface EventIntake {
  submitEvent(namespace: string, body: Record<string, any>, createdBy?: string): Promise<Publish>;
}
