import { useState } from 'preact/hooks';
import type { Balance, DepositOrder, FlowEntry, MyTrade, Order, WithdrawalOrder } from '../shared/market-types';
import { dateTime } from '../shared/format';
import { errorText, type SignedApi } from '../shared/signed-api';

export function Table({ head, rows, empty }: { head: string[]; rows: preact.ComponentChildren[][]; empty: string }) {
  return (
    <table>
      <thead>
        <tr>
          {head.map((h) => (
            <th scope="col" key={h}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={head.length} class="empty">
              {empty}
            </td>
          </tr>
        ) : (
          rows.map((cells, i) => (
            <tr key={i}>
              {cells.map((c, j) => (
                <td key={j}>{c}</td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

/** A button's signed call: `onChange` after it succeeds, its error (for an alert) when it fails. */
export function useButtonCall(onChange: () => void): {
  error: string;
  run(call: () => Promise<unknown>): Promise<void>;
} {
  const [error, setError] = useState('');
  const run = async (call: () => Promise<unknown>) => {
    setError('');
    try {
      await call();
      onChange();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return { error, run };
}

export function OpenOrders({ api, orders, onChange }: { api?: SignedApi; orders: Order[]; onChange(): void }) {
  const { error, run } = useButtonCall(onChange);
  const cancel = (order: Order) =>
    run(async () => api?.call('DELETE', '/openapi/v1/order', { orderId: order.orderId }));
  return (
    <section class="panel" aria-label="Open orders">
      <h2>Open orders</h2>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <Table
        head={['Time', 'Side', 'Type', 'Price', 'Amount', 'Filled', 'Status', '']}
        empty="No open orders."
        rows={orders.map((o) => [
          dateTime(o.time),
          <span class={o.side === 'BUY' ? 'up' : 'down'}>{o.side}</span>,
          o.type,
          o.price,
          o.origQty,
          o.executedQty,
          o.status,
          <button type="button" class="link" onClick={() => void cancel(o)}>
            Cancel
          </button>,
        ])}
      />
    </section>
  );
}

export function OrderHistory({ orders }: { orders: Order[] }) {
  return (
    <section class="panel" aria-label="Order history">
      <h2>Order history</h2>
      <Table
        head={['Time', 'Side', 'Type', 'Price', 'Amount', 'Filled', 'Status']}
        empty="No finished orders."
        rows={orders.map((o) => [dateTime(o.updateTime), o.side, o.type, o.price, o.origQty, o.executedQty, o.status])}
      />
    </section>
  );
}

export function MyTrades({ trades }: { trades: MyTrade[] }) {
  return (
    <section class="panel" aria-label="My trades">
      <h2>My trades</h2>
      <Table
        head={['Time', 'Side', 'Price', 'Amount', 'Fee']}
        empty="No trades."
        rows={trades.map((t) => [
          dateTime(t.time),
          t.isBuyer ? 'BUY' : 'SELL',
          t.price,
          t.qty,
          `${t.commission} ${t.commissionAsset}`,
        ])}
      />
    </section>
  );
}

export function Balances({ balances }: { balances: Balance[] }) {
  return (
    <section class="panel" aria-label="Balances">
      <h2>Balances</h2>
      <Table
        head={['Asset', 'Available', 'In orders']}
        empty="No balances."
        rows={balances.map((b) => [b.asset, b.free, b.locked])}
      />
    </section>
  );
}

export function BalanceFlow({ flow }: { flow: FlowEntry[] }) {
  return (
    <section class="panel" aria-label="Balance flow">
      <h2>Balance flow</h2>
      <Table
        head={['Time', 'Asset', 'Type', 'Change', 'Balance']}
        empty="No entries."
        rows={flow.map((f) => [dateTime(f.created), f.tokenId, f.flowType, f.change, f.total])}
      />
    </section>
  );
}

export function Wallet({
  api,
  assets,
  withdrawals,
  deposits,
  onChange,
}: {
  api?: SignedApi;
  assets: string[];
  withdrawals: WithdrawalOrder[];
  deposits: DepositOrder[];
  onChange(): void;
}) {
  const [asset, setAsset] = useState(assets[0] ?? '');
  const [address, setAddress] = useState('');
  const [quantity, setQuantity] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  const withdraw = async () => {
    setMessage(undefined);
    try {
      const w = await api!.call<WithdrawalOrder>('POST', '/openapi/v1/withdraw', {
        tokenId: asset,
        address,
        withdrawalQuantity: quantity,
        clientOrderId: `web-${Date.now()}`,
      });
      setMessage({ ok: true, text: `Withdrawal ${w.orderId}: ${w.statusCode}` });
      onChange();
    } catch (e) {
      setMessage({ ok: false, text: errorText(e) });
    }
  };
  return (
    <section class="panel wallet" aria-label="Deposits and withdrawals">
      <h2>Deposits</h2>
      <Table
        head={['Time', 'Asset', 'Amount', 'To address']}
        empty="No deposits."
        rows={deposits.map((d) => [dateTime(d.time), d.token, d.quantity, <code>{d.address}</code>])}
      />
      <h2>Withdrawals</h2>
      <form class="inline" aria-label="Withdraw" onSubmit={(e) => (e.preventDefault(), void withdraw())}>
        <label>
          Asset
          <select value={asset} onChange={(e) => setAsset(e.currentTarget.value)}>
            {assets.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label>
          Address
          <input type="text" value={address} onInput={(e) => setAddress(e.currentTarget.value)} />
        </label>
        <label>
          Withdrawal amount
          <input type="text" inputMode="decimal" value={quantity} onInput={(e) => setQuantity(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={!api}>
          Withdraw
        </button>
      </form>
      {message && (
        <p role={message.ok ? 'status' : 'alert'} class={message.ok ? 'ok' : 'error'}>
          {message.text}
        </p>
      )}
      <Table
        head={['Time', 'Asset', 'Amount', 'Fee', 'Address', 'Status']}
        empty="No withdrawals."
        rows={withdrawals.map((w) => [
          dateTime(w.time),
          w.tokenId,
          w.quantity,
          w.fee,
          <code>{w.address}</code>,
          w.statusCode,
        ])}
      />
    </section>
  );
}
