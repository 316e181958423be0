// Counts the modules of src/ with a test beside them (src/a/b.ts → test/a/b.test.ts), names the modules exempt from
// needing one and why (nothing runs in them), and lists the modules with logic and no test beside them.
// Run from the repository root: `node scripts/tests-beside.mjs` (add --json for the figures as JSON).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

// TypeScript loads only when a module is classified, so test-one.mjs can map paths at no cost.
const require = createRequire(import.meta.url);
let typescript;

/** The test beside a source module: src/a/b.ts → test/a/b.test.ts (undefined for a path outside src/). */
export function testBeside(source) {
  const match = /^(?:\.\/)?src\/(.+)\.ts$/.exec(source.replaceAll('\\', '/'));
  return match && !match[1].endsWith('.d') ? `test/${match[1]}.test.ts` : undefined;
}

// The composition root: it constructs the services and lists them; every test that starts the daemon runs it, and a
// module of it with logic of its own (a hub, a metric) has its test beside it all the same.
const COMPOSITION_ROOT = 'src/cli/daemon/';

/** Whether `node` is a single literal value (a string, a number, a boolean): a table or a template is logic, tested. */
function isScalar(ts, node) {
  if (ts.isAsExpression(node) || ts.isParenthesizedExpression(node)) return isScalar(ts, node.expression);
  if (ts.isPrefixUnaryExpression(node)) return ts.isNumericLiteral(node.operand);
  if (ts.isStringLiteral(node) || ts.isNumericLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return true;
  return node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword;
}

/** Why a module needs no test of its own (nothing in it runs), or undefined when it has logic of its own. */
export function exemption(path, text) {
  if (path.endsWith('.d.ts')) return 'declaration file';
  const ts = (typescript ??= require('typescript'));
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  let reexports = false;
  let types = false;
  let constants = false;
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) || ts.isImportEqualsDeclaration(statement)) continue;
    if (ts.isTypeAliasDeclaration(statement) || ts.isInterfaceDeclaration(statement)) types = true;
    else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly) types = true;
      else reexports = true;
    } else if (ts.getCombinedModifierFlags(statement) & ts.ModifierFlags.Ambient) types = true;
    else if (
      ts.isVariableStatement(statement) &&
      statement.declarationList.flags & ts.NodeFlags.Const &&
      statement.declarationList.declarations.every((d) => d.initializer && isScalar(ts, d.initializer))
    )
      constants = true;
    else return path.replaceAll('\\', '/').startsWith(COMPOSITION_ROOT) ? 'composition root: every test that starts the daemon runs it' : undefined;
  }
  if (constants) return types || reexports ? 'constants, types and re-exports only' : 'constants only';
  if (reexports) return types ? 're-exports and types only' : 're-exports only';
  return types ? 'types only' : 'empty';
}

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module of `root`/src with its test beside it (when one exists) or the reason it needs none. */
export function survey(root) {
  return sources(join(root, 'src'))
    .map((path) => relative(root, path).replaceAll('\\', '/'))
    .sort()
    .map((module) => {
      const test = testBeside(module);
      return {
        module,
        test: test && existsSync(join(root, test)) ? test : undefined,
        exempt: exemption(module, readFileSync(join(root, module), 'utf8')),
      };
    });
}

function report(modules) {
  const tested = modules.filter((entry) => entry.test);
  const exempt = modules.filter((entry) => !entry.test && entry.exempt);
  const missing = modules.filter((entry) => !entry.test && !entry.exempt);
  const withLogic = modules.length - exempt.length;
  const lines = [
    `${tested.length} of ${modules.length} modules have a test beside them (src/a/b.ts → test/a/b.test.ts);`,
    `${exempt.length} more are exempt (nothing in them runs, or the composition root), so ${tested.length} of ${withLogic} modules with logic have one` +
      ` and ${missing.length} have none.`,
    '',
    `Exempt (${exempt.length}):`,
    ...exempt.map((entry) => `  ${entry.module}  (${entry.exempt})`),
    '',
    `With logic and no test beside them (${missing.length}):`,
    ...missing.map((entry) => `  ${entry.module}  → ${testBeside(entry.module)}`),
  ];
  return { tested: tested.length, modules: modules.length, exempt: exempt.length, missing: missing.map((entry) => entry.module), lines };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { lines, ...figures } = report(survey(process.cwd()));
  process.stdout.write(process.argv.includes('--json') ? JSON.stringify(figures, null, 2) + '\n' : lines.join('\n') + '\n');
}
