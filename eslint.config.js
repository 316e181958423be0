// Lint for src/, test/, web/ and scripts/: the recommended JavaScript and typescript-eslint rules, and the size limits of src/.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The few plain-JavaScript files (scripts, dependency-cruiser config) run under Node.
const nodeGlobals = { require: 'readonly', module: 'readonly', process: 'readonly', console: 'readonly', URL: 'readonly' };

export default tseslint.config(
  // dist/ holds everything generated (tsc output, the vite bundle, the schema validators, build-info.json).
  { ignores: ['dist/', 'node_modules/', 'state/', 'test-artifacts/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // Json is `any` by design (src/json.ts), and tests read untyped response bodies.
      '@typescript-eslint/no-explicit-any': 'off',
      // A leading underscore names a value left out on purpose (a destructured key dropped, an unused parameter).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Control characters are matched on purpose: ANSI colour codes in output, control bytes in untrusted paths.
      'no-control-regex': 'off',
      // `let [a, b] = ...` where only a is assigned again stays one declaration.
      'prefer-const': ['error', { destructuring: 'all' }],
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }],
    },
  },
  // Written by scripts/build-types.mjs from the one table of the Sensu Go types: as long as the table.
  { files: ['src/v2/generated/*.ts'], rules: { 'max-lines': 'off' } },
  { files: ['**/*.cjs', '**/*.mjs'], languageOptions: { globals: nodeGlobals } },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
