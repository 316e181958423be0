// Kept only for client/http-socket.ts (edited by another helper this round); remove once it imports ../legacy/index.js.
export { prepareResult } from '../legacy/index.js';
