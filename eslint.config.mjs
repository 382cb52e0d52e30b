// @ts-check
import { readdirSync } from 'node:fs';
import eslint from '@eslint/js';
import prettierConfig from 'eslint-config-prettier';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/**
 * Layers point down (DESIGN §2, ARCHITECTURE.md): what each folder of src/ may import,
 * besides itself and libraries. Every other folder of src/ (and the composition root) is a
 * restricted import there, so an arrow that runs back up fails `npm run lint`, i.e. CI.
 * billing-runs/ and portal/ are listed by the homes they are moving to.
 */
/** What every layer above core/ stands on. */
const FOUNDATION = ['config', 'database', 'core'];
/** Customers, their contacts and the catalog: what every billing feature builds on. */
const CATALOG = [...FOUNDATION, 'reference', 'billing', 'customers', 'contacts', 'items', 'taxes', 'mail'];
/** Invoices and the ways to pay them. */
const BILLED = [...CATALOG, 'invoices', 'payments', 'paymethods'];

const MAY_IMPORT = {
  config: [],
  database: ['config'],
  core: ['config', 'database'],
  // Pure billing math: no database, no clock, no feature (the sub-folders of core it may use are below).
  billing: [],
  reference: FOUNDATION,
  mail: FOUNDATION,
  webhooks: FOUNDATION,
  bulk: FOUNDATION,
  payments: FOUNDATION,
  // Health, metrics, logs: they observe the app through core, never a feature.
  ops: FOUNDATION,
  customers: [...FOUNDATION, 'reference'],
  taxes: [...FOUNDATION, 'reference'],
  contacts: [...FOUNDATION, 'reference', 'customers', 'mail'],
  paymethods: [...FOUNDATION, 'reference', 'customers', 'payments'],
  items: [...FOUNDATION, 'reference', 'billing', 'taxes'],
  invoices: CATALOG,
  subscriptions: BILLED,
  // webhooks: the usage URL is called under the webhooks' target rules and pinned delivery.
  usage: [...FOUNDATION, 'reference', 'billing', 'customers', 'items', 'subscriptions', 'webhooks'],
  quotes: [...BILLED, 'subscriptions'],
  transactions: [...BILLED, 'webhooks'],
  // Collection and dunning charge invoices through transactions/ (ChargeAttempts).
  'billing-runs': [...BILLED, 'webhooks', 'subscriptions', 'usage', 'transactions'],
  portal: [...BILLED, 'transactions', 'subscriptions', 'quotes'],
  // Reads what the other modules recorded (through their entities) to report on revenue.
  analytics: [...BILLED, 'subscriptions', 'transactions', 'usage', 'billing-runs'],
};
/** billing/ may use these parts of core/ and nothing else of src/. */
const BILLING_MAY_IMPORT_FROM_CORE = ['money', 'time'];
/** The composition root (src/*.ts): no folder of src/ imports it. */
const ROOT_FILES = ['app.module', 'main', 'configure-app', 'check-migrations', 'billing-cli'];

const srcEntries = (dir) => readdirSync(new URL(dir, import.meta.url), { withFileTypes: true });
const FOLDERS = [
  ...new Set([
    ...srcEntries('./src')
      .filter((e) => e.isDirectory())
      .map((e) => e.name),
    ...Object.keys(MAY_IMPORT),
  ]),
];
const CORE_PARTS = srcEntries('./src/core').map((e) => e.name.replace(/\.ts$/, ''));

/** `src/x` and `src/x/...`, also written relatively from the folder's top (`../x`). */
const importsOf = (path) => [`src/${path}`, `src/${path}/**`, `../${path}`, `../${path}/**`];

function layerRule(folder) {
  const forbidden = FOLDERS.filter((other) => other !== folder && !MAY_IMPORT[folder].includes(other));
  if (folder === 'billing') {
    forbidden.splice(forbidden.indexOf('core'), 1);
    forbidden.push(
      ...CORE_PARTS.filter((part) => !BILLING_MAY_IMPORT_FROM_CORE.includes(part)).map((part) => `core/${part}`),
    );
  }
  return {
    files: [`src/${folder}/**/*.ts`],
    // Tests stand outside the layers (a spec may build its fixtures from any module).
    ignores: ['**/*.spec.ts', '**/*.spec-helper.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [...forbidden.flatMap(importsOf), ...ROOT_FILES.flatMap((file) => [`src/${file}`, `../${file}`])],
              message: `src/${folder}/ may import only ${[...MAY_IMPORT[folder], ...(folder === 'billing' ? BILLING_MAY_IMPORT_FROM_CORE.map((p) => `core/${p}`) : [])].join(', ') || 'libraries'} (layers point down: ARCHITECTURE.md).`,
            },
          ],
        },
      ],
    },
  };
}

export default defineConfig(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'data/**',
      'jest.config.js',
      'eslint.config.mjs',
      'test/support/*.js',
      // The program written against the generated client: it needs the types the client test
      // generates, and that test type-checks it (strict) with its own tsconfig.
      'test/client/**',
    ],
  },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
    },
  },
  {
    // Tests read HTTP bodies (typed `any` by supertest) field by field; the assertions
    // are the type check there.
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The capability to call outside the database (database/outside-call-guard.ts) is
    // minted outside units: never within a unit of work's body, written in `.run(...)`.
    files: ['src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='run'] CallExpression[callee.name='outsideUnit']",
          message: "outsideUnit() inside a unit of work's body: call outside before the unit, or in tx.afterCommit.",
        },
      ],
    },
  },
  ...Object.keys(MAY_IMPORT).map(layerRule),
  // Last: turns off every rule that conflicts with Prettier.
  prettierConfig,
);
