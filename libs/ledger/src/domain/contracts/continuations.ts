import type { ContinueFunding, ContinueLiquidation, LedgerJournalEvent } from '@exchange/contracts';

/**
 * The continuation commands a decision asks for (a funding or a liquidation cascade past one
 * command's budget), derived from its journaled events alone, as the engine's commands are: the
 * processor writes them to its own ledger.commands partition in the batch's atomic step, so a
 * part is continued exactly once. Each id is `<origin>/part:<n>`: a repeat is a processed id, and
 * the fold's cursor refuses a repeated funding part after the processed ids expired.
 */
export function continuationsFor(events: readonly LedgerJournalEvent[]): (ContinueFunding | ContinueLiquidation)[] {
  const commands: (ContinueFunding | ContinueLiquidation)[] = [];
  for (const event of events) {
    if (event.type === 'FundingContinued') {
      const { symbol, fundingTime, rate, markPrice, after, origin, part } = event.payload;
      commands.push({
        type: 'ContinueFunding',
        v: 1,
        id: `${origin}/part:${part}`,
        ts: event.ts,
        payload: { symbol, fundingTime, rate, markPrice, after, origin, part },
      });
    } else if (event.type === 'LiquidationContinued') {
      const { symbol, marketsVersion, origin, part } = event.payload;
      commands.push({
        type: 'ContinueLiquidation',
        v: 1,
        id: `${origin}/part:${part}`,
        ts: event.ts,
        payload: { symbol, marketsVersion, origin, part },
      });
    }
  }
  return commands;
}
