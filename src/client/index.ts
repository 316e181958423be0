// The legacy client role: its sockets, keepalives and results on the wire. What other folders may use of it.
export { ClientRole } from './client-role.js';
export { buildHttpSocket } from './http-socket.js';
export { keepalivePayload } from './keepalive.js';
export { listenClientSocket, localClientOf } from './socket.js';
export { WireResults } from './wire-results.js';
export { KeepaliveSession } from './keepalive-session.js';
export { ClientChecks } from './client-checks.js';
