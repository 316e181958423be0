import type { CheckResult } from '../execute/result.js';

/** The single door every result passes through: executions, the client socket, HTTP and the API alike. */
export interface ResultIntake {
  submit(result: CheckResult): Promise<void>;
}

