import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * `npm run lint`: ESLint for what the code means, Prettier (its own config, .prettierrc.json) for
 * how it looks; eslint-config-prettier, last, turns off every rule that would fight Prettier.
 *
 * TypeScript files are linted with type information: each file is checked with the nearest
 * tsconfig.json (projectService), so the example app (examples/tree-explorer/tsconfig.json:
 * DOM, JSX, bundler resolution) is checked with its own settings, the rest with the root one.
 */
export default tseslint.config(
  {
    ignores: [
      'dist/',
      'coverage/',
      '.data/',
      'test-artifacts/',
      'scratch/',
      'cdk.out/',
      'examples/tree-explorer/dist/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // `_` marks what is left out on purpose: a field destructured away, an unused parameter.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
      // Inline `type` markers, as the code writes them: `import { x, type T } from '...'`.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports' },
      ],
      // `x == null` on purpose: null or undefined.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // A `let` read by a callback made before its one assignment (undefined until then) stays a `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Apollo's plugin hooks, the SDK's `send` and the test doubles of async interfaces must return
      // promises: an `async` function with no `await` is how the code implements them.
      '@typescript-eslint/require-await': 'off',
      // The server logs through pino; console.error is its last resort when there is no logger.
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    // Programs that talk to a terminal: the command line, the benchmarks, scripts, the tests.
    files: [
      'src/cli/**',
      'src/graphql/printSchema.ts',
      'bench/**',
      'examples/tree-explorer/manifest.ts',
      'test/**',
      '**/*.test.ts',
    ],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests read GraphQL responses and SDK payloads as `any`: their shape is what the test checks.
    files: ['test/**', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  prettier,
  {
    // After eslint-config-prettier, which turns it off: Prettier wraps code at 120 columns, but
    // leaves long strings, comments and test titles as they are.
    rules: { 'max-len': ['error', { code: 120, ignoreUrls: true }] },
  },
);
