// One runner for three tiers: unit tests (src, *.spec.ts), service tests (test/service,
// *.service-spec.ts: real database, no HTTP) and e2e tests (test, *.e2e-spec.ts).
// NestJS 12 ships ES modules only; Jest on Node 20 loads CommonJS, so those packages
// are compiled to CommonJS by babel-jest on the fly (the app itself runs them natively).
const ESM_PACKAGES = ['@nestjs', '@apidevtools', 'file-type', 'strtok3', 'token-types', 'peek-readable', 'uint8array-extras', '@tokenizer', 'load-esm'];

module.exports = {
  moduleFileExtensions: ['js', 'mjs', 'json', 'ts'],
  rootDir: '.',
  testMatch: [
    '<rootDir>/src/**/*.spec.ts',
    '<rootDir>/bench/**/*.spec.ts',
    '<rootDir>/test/service/**/*.service-spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
  ],
  transform: {
    // tsconfig.json sets isolatedModules, so ts-jest only transpiles each file: types are
    // checked once by `npm run typecheck`, not again in every worker (which cost about 9 s of
    // every test file).
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
    '^.+\\.m?js$': [
      'babel-jest',
      {
        babelrc: false,
        configFile: false,
        plugins: [require.resolve('./test/support/babel-import-meta.js'), '@babel/plugin-transform-modules-commonjs'],
      },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  moduleNameMapper: { '^src/(.*)$': '<rootDir>/src/$1' },
  testEnvironment: 'node',
  // Two workers, one per core of the 2-core machines this runs on: a file spends much of its
  // time loading modules and waiting on its database, so two side by side take little more
  // than one. Each worker is replaced once it holds more than the limit below after a file:
  // every file loads the whole application, and one process running all of them in band ran
  // out of heap. Scratch databases (SQLite in memory, a MariaDB copy per file) keep files apart.
  maxWorkers: 2,
  workerIdleMemoryLimit: '1GB',
  // Generous: a file's beforeAll boots the app and seeds it, which a loaded 2-core host can stretch past 30 s.
  testTimeout: 60000,
};
