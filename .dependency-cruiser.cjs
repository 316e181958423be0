// The architecture of src/ (README "Layering"), held by test/architecture.test.ts. No ignore list.
const { LEVELS } = require('./architecture-levels.cjs');

const unitPath = (unit) => (unit.endsWith('.ts') ? `^src/${unit.replace(/\./g, '\\.')}$` : `^src/${unit}/`);
const anyOf = (units) => units.map(unitPath);

// Each level imports only its own level or lower.
const levelRules = LEVELS.slice(0, -1).map((units, level) => ({
  name: `level-${level}-imports-upward`,
  comment: `${units.join(', ')} (level ${level}) may import only levels 0-${level}`,
  severity: 'error',
  from: { path: anyOf(units) },
  to: { path: anyOf(LEVELS.slice(level + 1).flat()) },
}));

const RULES = [
  { name: 'no-circular', comment: 'no import cycle, type-only imports counted', severity: 'error', from: {}, to: { circular: true } },
  ...levelRules,
  { name: 'only-cli-imports-cli', severity: 'error', from: { path: '^src/', pathNot: '^src/cli/' }, to: { path: '^src/cli/' } },
  { name: 'only-api-and-cli-import-api', severity: 'error', from: { path: '^src/', pathNot: ['^src/api/', '^src/cli/'] }, to: { path: '^src/api/' } },
  {
    name: 'store-knows-no-runtime',
    severity: 'error',
    from: { path: '^src/store/' },
    to: {
      path: anyOf(['intake', 'handling', 'keepalives', 'fleet', 'scheduling', 'api', 'client', 'bridge', 'assets', 'secrets', 'auth', 'cluster', 'transport']),
    },
  },
  {
    name: 'client-is-not-the-server',
    severity: 'error',
    from: { path: '^src/client/' },
    to: { path: anyOf(['intake', 'handling', 'keepalives', 'fleet', 'scheduling', 'store', 'api']) },
  },
  { name: 'src-never-imports-tests', severity: 'error', from: { path: '^src/' }, to: { path: '^test/' } },
  { name: 'src-never-imports-dev-dependencies', severity: 'error', from: { path: '^src/' }, to: { dependencyTypes: ['npm-dev'] } },
  {
    name: 'through-index',
    comment: "a folder's outside users import its index.ts",
    severity: 'error',
    from: { path: '^src/([^/]+)/' },
    to: { path: '^src/[^/]+/.+', pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$'] },
  },
  {
    name: 'no-orphans',
    comment: 'every module is imported, but the entry points (the CLI and the worker threads and processes)',
    severity: 'error',
    from: { orphan: true, path: '^src/', pathNot: ['^src/cli/main\\.ts$', '-worker\\.ts$', '/worker\\.ts$', '^src/execute/spawner-host\\.ts$', '\\.d\\.ts$'] },
    to: {},
  },
];

module.exports = {
  forbidden: RULES,
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: ['^src/', '^test/'],
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
