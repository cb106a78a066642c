// Tests are tiered by file suffix (see README, Tests): *.spec.ts are pure units with no server,
// *.int.spec.ts talk to real PostgreSQL / Redis / Kafka (or the embedded adapters when those
// addresses are unset), *.e2e.spec.ts drive the HTTP and WebSocket surface.
const swcTransform = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const libs = [
  'api-gateway',
  'bootstrap',
  'contracts',
  'ledger',
  'market-data',
  'matching-engine',
  'messaging',
  'platform',
  'user-stream',
  'wallet',
];
// A service's read side for other services is a project of its own inside the service's lib.
const queryLibs = ['ledger', 'wallet'];
const moduleNameMapper = Object.fromEntries([
  ...libs.map((lib) => [`^@exchange/${lib}$`, `<rootDir>/libs/${lib}/src/index.ts`]),
  ...queryLibs.map((lib) => [`^@exchange/${lib}-query$`, `<rootDir>/libs/${lib}/src/query/index.ts`]),
]);

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)s$': swcTransform },
  // Nest 12 (and cookie, under Fastify's inject) ship as ES modules; Jest's CommonJS runtime needs them transpiled like our code.
  transformIgnorePatterns: [
    '/node_modules/(?!(@nestjs|file-type|strtok3|token-types|peek-readable|@tokenizer|uint8array-extras|cookie)/)',
  ],
  moduleNameMapper,
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/test', '<rootDir>/tools'],
};

module.exports = {
  // Jest's 5 s default is a timed assertion in disguise: starting an exchange on Kafka in a
  // beforeAll took longer than that on a shared two-core machine under load. Tests wait on
  // conditions with their own deadlines; this only bounds a hung one.
  testTimeout: 30_000,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['**/*.spec.ts'],
      testPathIgnorePatterns: [
        '\\.int\\.spec\\.ts$',
        '\\.e2e\\.spec\\.ts$',
        '\\.browser\\.spec\\.ts$',
        '/node_modules/',
      ],
    },
    // Starting an exchange on Kafka takes seconds, more on a loaded machine: jest's 5 s default is too tight for these tiers.
    { ...common, displayName: 'integration', testMatch: ['**/*.int.spec.ts'], testTimeout: 60_000 },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['**/*.e2e.spec.ts'],
      testTimeout: 60_000,
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/distributed/'],
    },
    // Six apps, nginx and the real services per file: run alone (--runInBand), after the other tiers,
    // so neither their CPU nor ours starves the other's timeouts on a two-core machine.
    // A real Chromium driving the pages of a spawned `npm start` (README, Web pages); after e2e.
    { ...common, displayName: 'browser', testMatch: ['**/*.browser.spec.ts'], testTimeout: 120_000 },
    { ...common, displayName: 'distributed', testMatch: ['<rootDir>/test/distributed/**/*.e2e.spec.ts'] },
  ],
};
