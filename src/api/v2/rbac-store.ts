// The RBAC store moved to src/auth (agentd authorizes agents with it too); the v2 API's imports of it read it here.
export { RBAC_TYPE, bindingDeleted, bindingWritten, rbacView, roleDeleted, roleWritten, seedRbac } from '../../auth/index.js';
