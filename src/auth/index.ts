// Users, passwords, tokens, RBAC and external identity providers. What other folders may use of it.
export { AGENT_GROUP, AGENT_ROLE, ensureAdmin, ensureAgentUser } from './bootstrap.js';
export { LoginLimiter, loginLimiterFor, type LoginKey } from './login-limiter.js';
export { attemptLogin, type LoginOutcome } from './login-attempt.js';
export { ConnectionGone, PasswordsBusy, closedSignal } from './password-pool.js';
export { hashPassword, verifyPassword, bcryptHashProblem, storedHashProblem, MAX_BCRYPT_COST } from './passwords.js';
export { heldUserProblem, isClusterAdmin, membershipProblem, otherUserProblem, type GrantView } from './privileges.js';
export { directoryLogin, isActive, isExternal, recordExternalUser } from './providers/external-login.js';
export { bindingCookie, bindingCookieName, bindingHolds, clearedBindingCookie, newBinding, readCookie } from './providers/oidc-binding.js';
export { FLOW_TTL_MS, FlowsFull, OidcFlows, authorizeUrl, completeSignIn } from './providers/oidc.js';
export { parseProvider, providerView, type Provider } from './providers/provider-spec.js';
export { deleteProvider, getProvider, listProviders, putProvider } from './providers/store.js';
export {
  BUILT_IN_CLUSTER_ROLES,
  BUILT_IN_CLUSTER_ROLE_BINDING,
  authorize,
  visibleNamespaces,
  bindingProblem,
  escalationProblem,
  rulesProblem,
  type Binding,
  type Decision,
  type RbacView,
  type Rule,
  type Verb,
} from './rbac.js';
export { RBAC_TYPE, bindingDeleted, bindingWritten, rbacView, roleDeleted, roleWritten, seedRbac } from './rbac-store.js';
export { TokenIssuer, hashApiKey, newSigningKey } from './tokens.js';
