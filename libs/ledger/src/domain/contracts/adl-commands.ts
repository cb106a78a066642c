import type { AdlCandidates, ApplyAdl, CollectAdlCandidates, LedgerJournalEvent } from '@exchange/contracts';

type Journaled<T extends LedgerJournalEvent['type']> = Extract<LedgerJournalEvent, { type: T }>;

/** A command for one ledger partition, written to it by number (it names no user of that partition). */
export interface PartitionCommand {
  partition: number;
  command: CollectAdlCandidates | AdlCandidates | ApplyAdl;
}

/**
 * The `ledger.commands` records an ADL step asks of other partitions (contract-adl.ts), written in
 * the deciding batch's atomic step. Ids are the ADL's id, the step and the receiving (or answering)
 * partition: a step decided again after a crash writes the same ids, which the receiver has processed.
 */
export function adlCommandsFor(events: readonly LedgerJournalEvent[]): PartitionCommand[] {
  const commands: PartitionCommand[] = [];
  for (const event of events) {
    if (event.type === 'AdlRequested') commands.push(...collectCommandsOf(event));
    else if (event.type === 'AdlCandidatesReserved') commands.push(answerOf(event));
    else if (event.type === 'AdlResolved') commands.push(...applyCommandsOf(event));
  }
  return commands;
}

function collectCommandsOf(event: Journaled<'AdlRequested'>) {
  const { adlId, symbol, side, quantity, markPrice, requester } = event.payload;
  return event.payload.partitions.map((partition) => ({
    partition,
    command: {
      type: 'CollectAdlCandidates',
      v: 1,
      id: `${adlId}/collect/${partition}`,
      ts: event.ts,
      payload: { adlId, symbol, side, quantity, markPrice, requester },
    } as const,
  }));
}

function answerOf(event: Journaled<'AdlCandidatesReserved'>) {
  const { adlId, from, requester, candidates, heldForOthers } = event.payload;
  return {
    partition: requester,
    command: {
      type: 'AdlCandidates',
      v: 1,
      id: `${adlId}/answer/${from}`,
      ts: event.ts,
      payload: { adlId, from, candidates, heldForOthers },
    } as const,
  };
}

/** Every partition that answered gets its legs; an empty list releases what it reserved. */
function applyCommandsOf(event: Journaled<'AdlResolved'>) {
  const { adlId, symbol, side, legs } = event.payload;
  return event.payload.partitions.map((partition) => ({
    partition,
    command: {
      type: 'ApplyAdl',
      v: 1,
      id: `${adlId}/apply/${partition}`,
      ts: event.ts,
      payload: {
        adlId,
        symbol,
        side: side === 'LONG' ? ('SHORT' as const) : ('LONG' as const),
        legs: legs
          .filter((l) => l.partition === partition)
          .map(({ accountId, quantity, value }) => ({ accountId, quantity, value })),
      },
    } as const,
  }));
}
