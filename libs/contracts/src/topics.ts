/**
 * The topics of the system and how they are created. Partition counts bound the parallelism of
 * each consumer group; keys keep what must stay ordered in one partition (a user's ledger, a
 * symbol's book). Retention is Kafka's settings, which the embedded log applies too: source-of-truth
 * topics keep everything; snapshot topics are compacted to the latest record per key, in segments
 * small enough (segment.bytes) that a closed one, the only kind a cleaner rewrites, comes soon.
 * A derived or transient topic would take `retention.ms` or `retention.bytes` with
 * `cleanup.policy: delete`; none exists yet (replies are read from ledger.events, and clock ticks
 * stay in order.events, whose offsets market data's answers are a function of).
 */
export interface TopicDefinition {
  name: string;
  partitions: number;
  /** What the record key is; documented so producers cannot disagree. */
  key: 'userId' | 'symbol' | 'withdrawalId' | 'actor' | 'partition';
  config: Record<string, string>;
}

const keepForever = { 'retention.ms': '-1', 'cleanup.policy': 'delete' };
const compacted = { 'cleanup.policy': 'compact', 'segment.bytes': String(16 * 1024 * 1024) };

export const Topics = {
  ledgerCommands: { name: 'ledger.commands', partitions: 8, key: 'userId', config: keepForever },
  ledgerEvents: { name: 'ledger.events', partitions: 8, key: 'userId', config: keepForever },
  /** The ledger's hot state of one ledger.commands partition, in chunks keyed `<partition>/<chunk>`, on that same partition. */
  ledgerSnapshots: { name: 'ledger.snapshots', partitions: 8, key: 'partition', config: compacted },
  operatorAudit: { name: 'operator.audit', partitions: 1, key: 'actor', config: keepForever },
  orderCommands: { name: 'order.commands', partitions: 4, key: 'symbol', config: keepForever },
  orderEvents: { name: 'order.events', partitions: 4, key: 'symbol', config: keepForever },
  bookSnapshots: { name: 'market.book-snapshots', partitions: 4, key: 'symbol', config: compacted },
  engineSnapshots: { name: 'matching-engine.snapshots', partitions: 4, key: 'symbol', config: compacted },
  walletCommands: { name: 'wallet.commands', partitions: 8, key: 'userId', config: keepForever },
  walletEvents: { name: 'wallet.events', partitions: 8, key: 'userId', config: keepForever },
  /** Records a consumer could not apply nor reject, parked for an operator (README, Poison records). */
  deadLetters: { name: 'operator.dead-letters', partitions: 1, key: 'userId', config: keepForever },
} as const satisfies Record<string, TopicDefinition>;

/**
 * The consumer group that writes the ledger's query tables from ledger.events: a read that must
 * reflect a reply waits until this group's committed offsets pass the events the reply followed.
 */
export const LEDGER_PROJECTION_GROUP = 'ledger-projection';

export type TopicName = (typeof Topics)[keyof typeof Topics]['name'];

export const allTopics: readonly TopicDefinition[] = Object.values(Topics);
