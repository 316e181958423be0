// User-supplied expressions in QuickJS on a worker thread. What other folders may use of it.
export { evaluateInSandbox, loadExpressionSandbox, logExpressionFailure, type DependencyLookup } from './expressions.js';
