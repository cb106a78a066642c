import { type LedgerJournalEvent, Topics } from '@exchange/contracts';
import { type EventLog, KafkaEventLog, NamespacedEventLog } from '@exchange/messaging';
import { openDataSource } from '@exchange/platform';
import { assertBalanceInvariant } from './balance-invariant';
import type { DistributedExchange } from './distributed-exchange';
import { decideLog, recoveredState, timelessHash } from './ledger-replay';
import { waitFor } from './wait-for';

/** The run's topics on the real Kafka, as its services see them (inside its namespace). */
export function openRunEventLog(exchange: DistributedExchange): EventLog {
  const brokers = process.env.KAFKA_BROKERS!.split(',');
  return new NamespacedEventLog(new KafkaEventLog({ brokers, clientId: `${exchange.namespace}-checks` }), exchange.namespace);
}

const ENGINE_GROUP = 'matching-engine';

/**
 * Waits until the pipeline is quiet: the engine has committed every order command, the ledger's
 * outbox is empty and its checkpoints have stopped moving (the engine's transactional writes
 * leave commit markers, so a checkpoint need not reach the high watermark).
 */
export async function waitUntilSettled(exchange: DistributedExchange, log: EventLog): Promise<void> {
  const ledger = `"${exchange.schemaPrefix}ledger"`;
  const wallet = `"${exchange.schemaPrefix}wallet"`;
  const db = await openDataSource({ url: exchange.databaseUrl, schema: `${exchange.schemaPrefix}ledger`, entities: [], migrations: [], readOnly: true });
  try {
    let last = '';
    await waitFor(
      async () => {
        const [ends, committed] = await Promise.all([log.endOffsets(Topics.orderCommands.name), log.committedOffsets(ENGINE_GROUP, Topics.orderCommands.name)]);
        const [row] = await db.query(
          `SELECT (SELECT coalesce(sum(next_offset), 0) FROM ${ledger}.checkpoints)::text AS applied, (SELECT count(*) FROM ${ledger}.outbox)::int + (SELECT count(*) FROM ${wallet}.outbox)::int AS outbox`,
        );
        const progress = `${row.applied}/${row.outbox}/${committed.join(',')}`;
        const settled = progress === last && row.outbox === 0 && ends.every((end, p) => (committed[p] ?? 0) === end);
        last = progress;
        return settled;
      },
      'the pipeline to settle',
      90_000,
      1000,
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
 * - every order a client got an answer for exists.
 */
export async function assertNothingLostOrDoubled(exchange: DistributedExchange, log: EventLog, answeredOrderIds: string[]): Promise<void> {
  const schema = `${exchange.schemaPrefix}ledger`;
  const { state, eventIds, journaled, partitions } = await decideLog(log);
  expect([...journaled.keys()].sort()).toEqual([...eventIds].sort());
  const db = await openDataSource({ url: exchange.databaseUrl, schema, entities: [], migrations: [], readOnly: true });
  try {
    expect(timelessHash(await recoveredState(db, schema, partitions))).toBe(timelessHash(state));
    const orderIds = new Set(((await db.query(`SELECT order_id::text AS id FROM "${schema}".orders`)) as { id: string }[]).map((r) => r.id));
    expect(answeredOrderIds.filter((id) => !orderIds.has(id))).toEqual([]);
    const legs: { n: number }[] = await db.query(`SELECT count(*)::int AS n FROM "${schema}".trades`);

    const engineEvents = await readOrderEvents(log);
    expect(new Set(engineEvents.map((e) => e.id)).size).toBe(engineEvents.length);
    const trades = engineEvents.filter((e) => e.type === 'TradeExecuted');
    expect(trades.length).toBeGreaterThan(0);
    expect(legs[0]!.n).toBe(2 * trades.length);

    const events = [...journaled.values()];
    const placed = new Set(events.filter((e) => e.type === 'OrderPlaced').map(orderIdOf));
    const decidedByEngine = new Set(events.filter((e) => e.type === 'OrderOutcomeApplied' || e.type === 'TradeSettled').map(orderIdOf));
    expect([...placed].filter((id) => !decidedByEngine.has(id))).toEqual([]);
    const accepted = new Set(engineEvents.filter((e) => e.type === 'OrderAccepted' || e.type === 'OrderRejected').map((e) => e.payload.orderId!));
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
    await log.read(Topics.orderEvents.name, p, 0, async (records) => void events.push(...records.map((r) => JSON.parse(r.value) as OrderEvent)));
  }
  return events;
}

function orderIdOf(event: LedgerJournalEvent): string {
  return 'order' in event.payload ? event.payload.order.orderId : '';
}
