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
const MAY_IMPORT = {
  config: [],
  database: ['config'],
  core: ['config', 'database'],
  // Pure billing math: no database, no clock, no feature (the sub-folders of core it may use are below).
  billing: [],
  reference: ['config', 'database', 'core'],
  mail: ['config', 'database', 'core'],
  webhooks: ['config', 'database', 'core'],
  bulk: ['config', 'database', 'core'],
  payments: ['config', 'database', 'core'],
  customers: ['config', 'database', 'core', 'reference'],
  taxes: ['config', 'database', 'core', 'reference'],
  contacts: ['config', 'database', 'core', 'reference', 'customers', 'mail'],
  paymethods: ['config', 'database', 'core', 'reference', 'customers', 'payments'],
  items: ['config', 'database', 'core', 'reference', 'billing', 'taxes'],
  invoices: ['config', 'database', 'core', 'reference', 'billing', 'customers', 'contacts', 'items', 'taxes', 'mail'],
  // Health, metrics, logs: they observe the app through core, never a feature.
  ops: ['config', 'database', 'core'],
  subscriptions: [
    'config',
    'database',
    'core',
    'reference',
    'billing',
    'customers',
    'contacts',
    'items',
    'taxes',
    'mail',
    'invoices',
    'payments',
    'paymethods',
  ],
  usage: ['config', 'database', 'core', 'reference', 'billing', 'customers', 'items', 'subscriptions'],
  quotes: [
    'config',
    'database',
    'core',
    'reference',
    'billing',
    'customers',
    'contacts',
    'items',
    'taxes',
    'mail',
    'invoices',
    'payments',
    'paymethods',
    'subscriptions',
  ],
  'billing-runs': [
    'config',
    'database',
    'core',
    'reference',
    'billing',
    'customers',
    'contacts',
    'items',
    'taxes',
    'mail',
    'invoices',
    'webhooks',
    'payments',
    'paymethods',
    'subscriptions',
    'usage',
  ],
  subscriptions: [
    'config',
    'database',
    'core',
    'reference',
    'billing',
    'customers',
    'contacts',
    'items',
    'taxes',
    'mail',
    'invoices',
    'payments',
    'paymethods',
  ],
  usage: ['config', 'database', 'core', 'reference', 'billing', 'customers', 'items', 'subscriptions'],
  transactions: [
    'config',
    'database',
    'core',
    'reference',
    'billing',
    'customers',
    'contacts',
    'items',
    'taxes',
    'mail',
    'invoices',
    'webhooks',
    'payments',
    'paymethods',
  ],
  portal: [
    'config',
    'database',
    'core',
    'reference',
    'billing',
    'customers',
    'contacts',
    'items',
    'taxes',
    'mail',
    'invoices',
    'payments',
    'paymethods',
    'transactions',
    'subscriptions',
    'quotes',
  ],
};
/** billing/ may use these parts of core/ and nothing else of src/. */
const BILLING_MAY_IMPORT_FROM_CORE = ['money', 'time'];
/** The composition root (src/*.ts): no folder of src/ imports it. */
const ROOT_FILES = ['app.module', 'app.entities', 'main', 'configure-app', 'check-migrations'];

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
  ...Object.keys(MAY_IMPORT).map(layerRule),
  // Last: turns off every rule that conflicts with Prettier.
  prettierConfig,
);
