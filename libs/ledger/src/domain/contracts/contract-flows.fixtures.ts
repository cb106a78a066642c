import type { ContractEvent, FlowEntry } from '@exchange/contracts';
import { Money, ZERO } from '../ledger-money';
import type { ContractsState } from './contract-state';

/** Every flow entry an event carries. */
export function flowsOf(event: ContractEvent): FlowEntry[] {
  switch (event.type) {
    case 'ContractOrderFilled':
    case 'FundingSettled':
    case 'PositionLiquidated':
    case 'PositionDeleveraged':
    case 'AdlResolved':
    case 'AdlApplied':
      return event.payload.flows;
    default:
      return [];
  }
}

/**
 * Throws unless, for every account, what was credited plus every flow's change is its USDT now
 * (free + locked + position margin), and each flow's `total` is the running total after it.
 */
export function checkFlowsExplainBalances(journal: readonly ContractEvent[], state: ContractsState): void {
  const running = new Map<string, Money>();
  const add = (id: string, amount: Money) => running.set(id, (running.get(id) ?? ZERO).plus(amount));
  for (const event of journal) {
    if (event.type === 'ContractAccountCredited' || event.type === 'InsuranceFundSeeded')
      add(event.payload.balance.accountId, new Money(event.payload.amount));
    for (const flow of flowsOf(event)) {
      add(flow.accountId, new Money(flow.change));
      if (!running.get(flow.accountId)!.eq(flow.total))
        throw new Error(
          `flow ${flow.flowId} of ${flow.accountId}: total ${flow.total}, running ${running.get(flow.accountId)!.toFixed()}`,
        );
    }
  }
  for (const [id, b] of state.balances) {
    const total = b.free.plus(b.locked).plus(b.positionMargin);
    if (!total.eq(running.get(id) ?? ZERO))
      throw new Error(`account ${id}: holds ${total.toFixed()}, flows explain ${(running.get(id) ?? ZERO).toFixed()}`);
  }
}
