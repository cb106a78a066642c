export const LEDGER_DATA_SOURCE = Symbol('LEDGER_DATA_SOURCE');
/** The ledger's schema name: `ledger`, after DATABASE_SCHEMA_PREFIX. */
export const LEDGER_SCHEMA = Symbol('LEDGER_SCHEMA');
/** userId → its ledger.commands partition (the same number on ledger.events and ledger.snapshots). */
export const LEDGER_PARTITION_OF = Symbol('LEDGER_PARTITION_OF');
/** ledger.commands' partition count (the partitioner's modulus; the relays command every partition). */
export const LEDGER_PARTITIONS = Symbol('LEDGER_PARTITIONS');
