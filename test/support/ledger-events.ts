import { type LedgerAccountCommand, type LedgerEvent, parseLedgerEvent, Topics } from '@exchange/contracts';
import type { EventLog } from '@exchange/messaging';

/** Reads every event of `ledger.events`, in partition order (per-user order is what matters). */
export async function readLedgerEvents(log: EventLog): Promise<LedgerEvent[]> {
  const events: LedgerEvent[] = [];
  const partitions = await log.partitionCount(Topics.ledgerEvents.name);
  for (let p = 0; p < partitions; p++) {
    await log.read(Topics.ledgerEvents.name, p, 0, async (records) => {
      for (const r of records) {
        // Every event a test reads passes the schema consumers check it with.
        const event = parseLedgerEvent(r.value);
        if (!event) throw new Error(`ledger.events ${p}@${r.offset} is not a ledger event: ${r.value}`);
        events.push(event as LedgerEvent);
      }
    });
  }
  return events;
}

export async function publishLedgerCommands(log: EventLog, commands: LedgerAccountCommand[]): Promise<void> {
  await log.publish(
    commands.map((c) => ({ topic: Topics.ledgerCommands.name, key: c.payload.userId, value: JSON.stringify(c) })),
  );
}
