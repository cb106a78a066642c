export * from './domain/decide';
export * from './domain/ledger-state';
export * from './domain/ledger-state-hash';
export * from './ledger.module';
export * from './persistence/ledger-projection';
export * from './persistence/ledger-store';
export * from './processing/ledger-command.processor';
export * from './processing/ledger.tokens';
