// The project's boundaries, held by a tool rather than by prose. `npm run lint` runs it with
// --max-warnings 0 from the repository root (the top level is fixed, so the config lives here).
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = fileURLToPath(new URL('../..', import.meta.url));
const features = readdirSync(new URL('../../web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The server's folders besides api/: the web app reaches none of them. */
const serverFolders = ['./engine', './projections', './scripts', './test'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'web/.dist-*/**', 'data/**', 'coverage/**', 'test/e2e/artifacts/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  { files: ['**/*.js'], languageOptions: { globals: { ...globals.node } } },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } } },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.node } },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-useless-path-segments': 'error',
      'import-x/no-duplicates': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            // The engine's domain is pure: it imports nothing outside itself (npm packages such as zod aside).
            {
              target: './engine/domain',
              from: ['./engine', './api', './projections', './web', './scripts', './test'],
              except: ['./domain'],
              message: 'engine/domain imports nothing outside engine/domain.',
            },
            // The engine is the core: nothing of the API, the read models or the web app.
            { target: './engine', from: ['./api', './projections', './web', './scripts', './test'], message: 'The engine imports nothing from the layers around it.' },
            { target: './projections', from: ['./api', './web', './scripts', './test'], message: 'Read models are kept from the log alone.' },
            // The contract is what the server and the browser share: zod and nothing of either runtime.
            // (engine/domain's vocabulary aside: it is pure, and one home for the enums both sides speak.)
            { target: './api/contracts', from: './api', except: ['./contracts'], message: 'api/contracts imports nothing of the server: the web app bundles it.' },
            { target: './api/contracts', from: './engine', except: ['./domain'], message: 'api/contracts imports only the pure engine/domain.' },
            { target: './api/contracts', from: ['./projections', './web', './scripts', './test'], message: 'api/contracts imports nothing of the server: the web app bundles it.' },
            // The web app reaches the server only through the contract.
            { target: './web', from: './api', except: ['./contracts'], message: 'The web app imports only api/contracts from the server side.' },
            { target: './web', from: serverFolders, message: 'The web app imports only api/contracts from the server side.' },
            // Shared web code knows no feature; features never import each other.
            { target: ['./web/src/lib', './web/src/components'], from: './web/src/features', message: 'lib/ and components/ import no feature.' },
            ...features.map((feature) => ({
              target: `./web/src/features/${feature}`,
              from: './web/src/features',
              except: [`./${feature}`],
              message: 'Features never import each other: move what they share to lib/ or components/.',
            })),
          ],
        },
      ],
    },
  },
  {
    files: ['engine/domain/**/*.ts'],
    rules: {
      // No clock, no randomness, no I/O: `now` and ids arrive with the command.
      'no-restricted-imports': ['error', { patterns: [{ regex: '^node:', message: 'engine/domain is pure: no Node.js modules.' }] }],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'engine/domain reads no clock: use the command’s `now`.' },
        { object: 'Math', property: 'random', message: 'engine/domain draws no random numbers: ids arrive with the command.' },
      ],
    },
  },
  {
    files: ['api/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!zod$|\\.)', message: 'api/contracts imports only zod, itself and engine/domain.' }] }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'test/web/**/*.ts', 'test/e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests read answers whose shape is the thing under test: `any` there is the assertion's job.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
