import type { LedgerEventBase } from '../ledger/ledger-events';
import type { ContractEvent, ContractOrderNotice } from './contract-events';

type Journaled<E extends { type: string; payload: unknown }> = E extends unknown
  ? LedgerEventBase<E['type'], E['payload']>
  : never;

/**
 * A contracts event as the ledger journals it on `ledger.events`: the shape libs/contracts defines
 * for it, in the journal's envelope (v 1, id `<commandId>:<index>`, and userId, seq and commandId
 * added to the payload), keyed by the userId of the command that caused it.
 */
export type ContractJournalEvent = Journaled<ContractEvent | ContractOrderNotice>;

/** Every contracts event type the journal holds (a Record, so a new one cannot be left out). */
const contractJournalTypes: Record<ContractJournalEvent['type'], true> = {
  ContractAccountCredited: true,
  ContractAccountDebited: true,
  ContractOrderPlaced: true,
  ContractOrderFilled: true,
  ContractOrderEnded: true,
  PositionMarginModified: true,
  InsuranceFundSeeded: true,
  FundingSettled: true,
  PositionLiquidated: true,
  PositionDeleveraged: true,
  ContractStopTriggered: true,
  ContractMarkPriced: true,
  ContractCancelRequested: true,
  ContractOrderRested: true,
  AdlRequested: true,
  AdlCandidatesReserved: true,
  AdlCandidatesReceived: true,
  AdlResolved: true,
  AdlApplied: true,
  FundingContinued: true,
  LiquidationContinued: true,
};

/** Whether a journal event is a contracts event (the contracts fold and projection take it). */
export function isContractJournalEvent<E extends { type: string }>(
  event: E,
): event is Extract<E, ContractJournalEvent> {
  return Object.hasOwn(contractJournalTypes, event.type);
}
