import type { Publish } from './v2-events.js';

/** The same door for a v2 event (the v2 API's PUT and POST): answered once it is stored, or with why it was not. */
export interface EventIntake {
  submitEvent(namespace: string, body: Record<string, any>, createdBy?: string): Promise<Publish>;
}
