import type { ContractAccount, ContractOrder, ContractPosition } from '../shared/market-types';
import { dateTime } from '../shared/format';
import type { SignedApi } from '../shared/signed-api';
import { Table, useButtonCall } from './account-panels';

/** The contracts account (CONTRACTS.md): its USDT, its positions and its open orders, kept current by the user stream's contract events. */
export function ContractsPanel({
  api,
  account,
  positions,
  orders,
  onChange,
}: {
  api?: SignedApi;
  account?: ContractAccount;
  positions: ContractPosition[];
  orders: ContractOrder[];
  onChange(): void;
}) {
  const { error, run } = useButtonCall(onChange);
  const cancel = (order: ContractOrder) =>
    run(async () => api?.call('DELETE', '/openapi/contract/v1/order/cancel', { orderId: order.orderId }));
  return (
    <section class="panel contracts" aria-label="Contracts">
      <h2>Contracts account</h2>
      <Table
        head={['Asset', 'Total', 'Available margin', 'Position margin', 'Order margin']}
        empty="No contracts account."
        rows={
          account ? [['USDT', account.total, account.availableMargin, account.positionMargin, account.orderMargin]] : []
        }
      />
      <h2>Positions</h2>
      <Table
        head={[
          'Symbol',
          'Side',
          'Size',
          'Available',
          'Entry price',
          'Leverage',
          'Margin',
          'Liq. price',
          'Unrealised PnL',
          'Realised PnL',
        ]}
        empty="No positions."
        rows={positions.map((p) => [
          p.symbol,
          <span class={p.side === 'LONG' ? 'up' : 'down'}>{p.side}</span>,
          p.position,
          p.available,
          p.avgPrice,
          p.leverage,
          p.margin,
          p.flp,
          p.unrealizedPnL,
          p.realizedPnL,
        ])}
      />
      <h2>Contract orders</h2>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <Table
        head={['Time', 'Symbol', 'Side', 'Price', 'Quantity', 'Filled', 'Leverage', 'Status', '']}
        empty="No open contract orders."
        rows={orders.map((o) => [
          dateTime(o.time),
          o.symbol,
          <span class={o.side.startsWith('BUY') ? 'up' : 'down'}>{o.side}</span>,
          o.price,
          o.origQty,
          o.executedQty,
          o.leverage,
          o.status,
          <button type="button" class="link" onClick={() => void cancel(o)}>
            Cancel
          </button>,
        ])}
      />
    </section>
  );
}
