// User-supplied expressions in QuickJS on a worker thread. What other folders may use of it.
export {
  evaluateInSandbox,
  loadExpressionSandbox,
  useSandboxLogger,
  logExpressionFailure,
  SandboxAllowance,
  EVENT_ALLOWANCE_MS,
  DISPATCH_ALLOWANCE_MS,
  type DependencyLookup,
  type Outcome,
} from './expressions.js';
