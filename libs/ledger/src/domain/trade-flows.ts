import type { BalanceAfter, FlowEntry, TradeSettled } from '@exchange/contracts';
import { Money } from './ledger-money';

/**
 * The balance-flow entries of a v2 trade leg, as settleTradeLeg decided them and v1 wrote them:
 * TRADE −paid on the paid asset, TRADE +gross on the received one, and when there is a fee, FEE
 * −fee and FEE +fee on the fee account. The balances after the leg are in that order (paid,
 * received, fee account), and each entry's total is free + locked after it: the received asset's
 * after the gross credit is its final total plus the fee. Ids are the first flow id and the next ones.
 */
export function tradeFlows(event: TradeSettled): FlowEntry[] {
  const { trade, balances, firstFlowId, feeAccountId } = event.payload;
  const [paidBalance, receivedBalance, feeBalance] = balances as [BalanceAfter, BalanceAfter, BalanceAfter | undefined];
  const [paid, gross] = trade.isBuyer ? [trade.quoteQty, trade.qty] : [trade.qty, trade.quoteQty];
  const fee = new Money(trade.commission);
  const received = totalOf(receivedBalance);
  const first = Number(firstFlowId);
  const entry = (
    k: number,
    accountId: string,
    asset: string,
    flowType: FlowEntry['flowType'],
    change: Money,
    total: Money,
  ): FlowEntry => ({
    flowId: String(first + k),
    accountId,
    asset,
    flowType,
    change: change.toFixed(),
    total: total.toFixed(),
  });
  const flows = [
    entry(0, trade.accountId, paidBalance.asset, 'TRADE', new Money(paid).negated(), totalOf(paidBalance)),
    entry(1, trade.accountId, receivedBalance.asset, 'TRADE', new Money(gross), received.plus(fee)),
  ];
  if (!fee.isZero() && feeBalance) {
    flows.push(
      entry(2, trade.accountId, receivedBalance.asset, 'FEE', fee.negated(), received),
      entry(3, feeAccountId, feeBalance.asset, 'FEE', fee, totalOf(feeBalance)),
    );
  }
  return flows;
}

function totalOf(balance: BalanceAfter): Money {
  return new Money(balance.free).plus(balance.locked);
}
