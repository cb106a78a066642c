import { type LedgerJournalEvent, Topics } from '@exchange/contracts';
import { type EventLog, KafkaEventLog, NamespacedEventLog } from '@exchange/messaging';
import { openDataSource } from '@exchange/platform';
import { assertBalanceInvariant } from './balance-invariant';
import type { DistributedExchange } from './distributed-exchange';
import { decideLog, recoveredState, timelessHash } from './ledger-replay';
import { committedLagProbe, MONEY_PATH_STAGES, outboxProbe, waitUntilQuiet } from './quiet-pipeline';

/** The run's topics on the real Kafka, as its services see them (inside its namespace). */
export function openRunEventLog(exchange: DistributedExchange): EventLog {
  const brokers = process.env.KAFKA_BROKERS!.split(',');
  return new NamespacedEventLog(
    new KafkaEventLog({ brokers, clientId: `${exchange.namespace}-checks` }),
    exchange.namespace,
  );
}

/**
 * Waits until the pipeline is quiet: the ledger, its projection, the engine and the wallet have
 * committed all of their inputs and the wallet's outbox is empty, on two polls a second apart.
 */
export async function waitUntilSettled(exchange: DistributedExchange, log: EventLog): Promise<void> {
  const db = await openDataSource({
    url: exchange.databaseUrl,
    schema: `${exchange.schemaPrefix}ledger`,
    entities: [],
    migrations: [],
    readOnly: true,
  });
  try {
    const schemas = [`${exchange.schemaPrefix}ledger`, `${exchange.schemaPrefix}wallet`];
    await waitUntilQuiet(
      [committedLagProbe(log, MONEY_PATH_STAGES), outboxProbe((sql) => db.query(sql), schemas)],
      'the pipeline to settle',
    );
  } finally {
    await db.destroy();
  }
}

/**
 * What "no order, trade or money lost or doubled" means across the services, checked from their
 * journals and tables:
 * - the ledger's tables equal deciding every command journaled on ledger.commands exactly once,
 *   and its journal holds exactly the events of those decisions;
 * - every order the ledger placed reached the engine and has its outcome applied (or is
 *   still pending a cancel), every order the engine accepted was placed by the ledger;
 * - no order.events id twice, and every trade settled exactly once on each of its two legs;
 * - balances add up to the deposits, fee accounts included, and none is negative;
 * - every order a client got an answer for exists (spot orders: contract orders are checked by
 *   their client ids, see contract-checks).
 */
export async function assertNothingLostOrDoubled(
  exchange: DistributedExchange,
  log: EventLog,
  answeredOrderIds: string[],
): Promise<void> {
  const schema = `${exchange.schemaPrefix}ledger`;
  const { state, eventIds, journaled, partitions } = await decideLog(log);
  expect([...journaled.keys()].sort()).toEqual([...eventIds].sort());
  const db = await openDataSource({ url: exchange.databaseUrl, schema, entities: [], migrations: [], readOnly: true });
  try {
    expect(timelessHash(await recoveredState(db, schema, partitions))).toBe(timelessHash(state));
    const orderIds = new Set(
      ((await db.query(`SELECT order_id::text AS id FROM "${schema}".orders`)) as { id: string }[]).map((r) => r.id),
    );
    expect(answeredOrderIds.filter((id) => !orderIds.has(id))).toEqual([]);
    // One row per account leg, spot and contract trades alike.
    const legs: { n: number }[] = await db.query(
      `SELECT ((SELECT count(*) FROM "${schema}".trades) + (SELECT count(*) FROM "${schema}".contract_trades))::int AS n`,
    );

    const engineEvents = await readOrderEvents(log);
    expect(new Set(engineEvents.map((e) => e.id)).size).toBe(engineEvents.length);
    const trades = engineEvents.filter((e) => e.type === 'TradeExecuted');
    expect(trades.length).toBeGreaterThan(0);
    expect(legs[0]!.n).toBe(2 * trades.length);

    const events = [...journaled.values()];
    const placed = new Set(events.filter((e) => PLACED.has(e.type)).map(orderIdOf));
    const decidedByEngine = new Set(events.filter((e) => DECIDED_BY_ENGINE.has(e.type)).map(orderIdOf));
    expect([...placed].filter((id) => !decidedByEngine.has(id))).toEqual([]);
    const accepted = new Set(
      engineEvents
        .filter((e) => e.type === 'OrderAccepted' || e.type === 'OrderRejected')
        .map((e) => e.payload.orderId!),
    );
    expect([...accepted].sort()).toEqual([...placed].sort());
  } finally {
    await db.destroy();
  }
  await assertBalanceInvariant(exchange.databaseUrl, schema);
}

interface OrderEvent {
  id: string;
  type: string;
  payload: { orderId?: string; tradeId?: string };
}

async function readOrderEvents(log: EventLog): Promise<OrderEvent[]> {
  const events: OrderEvent[] = [];
  const partitions = await log.partitionCount(Topics.orderEvents.name);
  for (let p = 0; p < partitions; p++) {
    await log.read(
      Topics.orderEvents.name,
      p,
      0,
      async (records) => void events.push(...records.map((r) => JSON.parse(r.value) as OrderEvent)),
    );
  }
  return events;
}

const PLACED = new Set(['OrderPlaced', 'ContractOrderPlaced']);
/** The ledger's events of the engine's word on an order: spot outcomes and fills, contract fills, ends and rests. */
const DECIDED_BY_ENGINE = new Set([
  'OrderOutcomeApplied',
  'TradeSettled',
  'ContractOrderFilled',
  'ContractOrderEnded',
  'ContractOrderRested',
]);

function orderIdOf(event: LedgerJournalEvent): string {
  if ('order' in event.payload) return event.payload.order.orderId;
  return event.type === 'ContractOrderRested' ? event.payload.orderId : '';
}
