import { HeaderNames } from './envelope/message';

/**
 * The topics of the system and how they are created. Partition counts bound the parallelism of
 * each consumer group; keys keep what must stay ordered in one partition (a user's ledger, a
 * symbol's book). Retention is Kafka's settings, which the embedded log applies too: source-of-truth
 * topics keep everything; snapshot topics are compacted to the latest record per key, in segments
 * small enough (segment.bytes) that a closed one, the only kind a cleaner rewrites, comes soon.
 * A derived or transient topic takes `retention.ms` or `retention.bytes` with `cleanup.policy:
 * delete` (market.contract-prices; replies are read from ledger.events, and clock ticks stay in
 * order.events, whose offsets market data's answers are a function of).
 */
export interface TopicDefinition {
  name: string;
  partitions: number;
  /** What the record key is; documented so producers cannot disagree. */
  key: 'userId' | 'symbol' | 'withdrawalId' | 'actor' | 'partition' | 'index';
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
  /**
   * Index and mark prices and funding rates of the contracts, as market data decides them
   * (ContractPricesChanged, FundingRateFixed; the ledger's input for funding and liquidation).
   * One partition: one order for every contract. Derived: kept a week.
   */
  contractPrices: {
    name: 'market.contract-prices',
    partitions: 1,
    key: 'symbol',
    config: { 'retention.ms': String(7 * 24 * 60 * 60 * 1000), 'cleanup.policy': 'delete' },
  },
  /** The prices decider's state per contract (what replicas serve and restart from): the latest per symbol. */
  contractPriceState: { name: 'market.contract-price-state', partitions: 1, key: 'symbol', config: compacted },
  /** External index prices the operator feeds (POST /admin/v1/index-prices): the latest per index. */
  indexPrices: { name: 'market.index-prices', partitions: 1, key: 'index', config: compacted },
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

/** A message as the event log takes it: structurally the messaging lib's OutgoingRecord. */
export interface MessageRecord {
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
  /** The message `value` is the JSON of, for this process's consumers (OutgoingRecord.message). */
  message: unknown;
}

/** What a record says of where its message came from. */
export interface RecordTrace {
  /** The id of the message that caused this one. */
  causation?: string;
  /** The id of the request it all began with. */
  correlation?: string;
}

/**
 * `message` as a record of `topic`: keyed by the payload field the topic names (so no producer
 * keys it otherwise), with the headers for its id and type and, when given, its causation and
 * correlation ids (HeaderNames).
 */
export function toRecord<T extends TopicDefinition>(
  topic: T,
  message: { id: string; type: string; payload: { [K in T['key']]: string } },
  trace: RecordTrace = {},
): MessageRecord {
  const key = message.payload[topic.key as T['key']];
  if (!key) throw new Error(`${message.type} on ${topic.name}: no ${topic.key} to key it by`);
  return { topic: topic.name, key, value: JSON.stringify(message), headers: headersOf(message, trace), message };
}

/**
 * `message` as a record of one chosen partition of `topic`, for a message without the topic's key
 * (ledger.commands' partition commands: the relay's prices, the operator's insurance seeding):
 * `key` then only labels the record; the headers are toRecord's.
 */
export function toPartitionRecord(
  topic: TopicDefinition,
  message: { id: string; type: string },
  partition: number,
  key: string,
  trace: RecordTrace = {},
): MessageRecord & { partition: number } {
  return {
    topic: topic.name,
    key,
    partition,
    value: JSON.stringify(message),
    headers: headersOf(message, trace),
    message,
  };
}

function headersOf(message: { id: string; type: string }, trace: RecordTrace): Record<string, string> {
  return {
    [HeaderNames.messageId]: message.id,
    [HeaderNames.messageType]: message.type,
    ...(trace.causation ? { [HeaderNames.causationId]: trace.causation } : {}),
    ...(trace.correlation ? { [HeaderNames.correlationId]: trace.correlation } : {}),
  };
}
