// Sensu Go agents over the agent WebSocket (Sensu Go's agentd). What other folders may use of it.
export { AgentdServer, type AgentdDeps } from './server.js';
export { deregisterOnLoss } from './deregister.js';
export { AgentSession, SessionRegistry, type AgentIdentity } from './sessions.js';
export { MESSAGE, type AgentPayload } from './frames.js';
