import type {
  ContractBalanceAfter,
  ContractJournalEvent,
  ContractOrderChange,
  ContractOrderRecord,
  ContractTradeRecord,
  FlowEntry,
  PositionAfter,
} from '@exchange/contracts';
import type { QueryRunner } from 'typeorm';
import { type FundingCursor, fundingCursorKey } from '../domain/contracts/contract-state';
import { Money, ZERO } from '../domain/ledger-money';

/**
 * The rows contract events leave in PostgreSQL: the contracts accounts' USDT, positions, orders
 * (a whole record when placed; the fields a fill or an end changes afterwards) and trades. Every
 * value is the absolute one the event carries, so writing an event twice changes nothing.
 */
export interface ContractRows {
  balances: Map<string, ContractBalanceAfter>;
  positions: Map<string, PositionAfter & { updateTime: number }>;
  orders: Map<string, ContractOrderRecord & { updateTime: number }>;
  orderChanges: Map<string, ContractOrderChange & { updateTime: number }>;
  trades: ContractTradeRecord[];
  /** The last funding time settled, per `fund account|symbol`. */
  fundings: Map<string, { fundAccountId: string; symbol: string; fundingTime: number }>;
  /** The cursors of settlements decided in parts, per fundingCursorKey: moved on, or ended by a part that left none. */
  fundingCursors: Map<string, FundingCursor | { key: Omit<FundingCursor, 'after' | 'part'>; ended: true }>;
  /** What no margin paid, added per account in this batch (the projector writes a batch once: see LedgerProjector). */
  uncovered: Map<string, Money>;
  /** Orders whose cancel was requested in this batch, with the liquidation's reason when it asked. */
  cancelRequests: Map<string, string | null>;
  /** The last mark price consumed, per `fund account|symbol`: each partition's own, in its journal's order, as the fold keeps it. */
  marks: Map<string, { fundAccountId: string; symbol: string; markPrice: string; indexPrice: string; at: number }>;
}

export function emptyContractRows(): ContractRows {
  return {
    balances: new Map(),
    positions: new Map(),
    orders: new Map(),
    orderChanges: new Map(),
    trades: [],
    fundings: new Map(),
    fundingCursors: new Map(),
    uncovered: new Map(),
    cancelRequests: new Map(),
    marks: new Map(),
  };
}

/** Adds one contract event's rows; returns the flow entries it carries (written with the spot flows). */
export function addContractRows(rows: ContractRows, event: ContractJournalEvent): readonly FlowEntry[] {
  const balance = (b: ContractBalanceAfter) => rows.balances.set(b.accountId, b);
  const uncovered = (accountId: string, amount: string) => {
    if (!new Money(amount).isZero())
      rows.uncovered.set(accountId, (rows.uncovered.get(accountId) ?? ZERO).plus(amount));
  };
  const position = (p: PositionAfter) =>
    rows.positions.set(`${p.accountId}|${p.symbol}|${p.side}`, { ...p, updateTime: event.ts });
  switch (event.type) {
    case 'ContractAccountCredited':
    case 'ContractAccountDebited':
    case 'InsuranceFundSeeded':
      balance(event.payload.balance);
      return (event.type === 'InsuranceFundSeeded' && event.payload.flows) || [];
    case 'ContractOrderPlaced':
    case 'ContractStopTriggered':
      rows.orders.set(event.payload.order.orderId, { ...event.payload.order, updateTime: event.ts });
      rows.orderChanges.delete(event.payload.order.orderId);
      // The fold takes the record whole: a cancel mark before it is gone (the upsert clears it too).
      rows.cancelRequests.delete(event.payload.order.orderId);
      if (event.type === 'ContractOrderPlaced') {
        balance(event.payload.balance);
        position(event.payload.position);
      }
      return [];
    case 'ContractOrderFilled':
    case 'ContractOrderEnded': {
      const p = event.payload;
      changeOrder(rows, p.order, event.ts);
      balance(p.balance);
      position(p.position);
      if (event.type !== 'ContractOrderFilled') return [];
      const f = event.payload;
      balance(f.feeAccount);
      uncovered(f.accountId, f.uncovered);
      rows.trades.push({
        tradeId: f.tradeId,
        accountId: f.accountId,
        orderId: f.order.orderId,
        symbol: f.symbol,
        side: f.side,
        price: f.price,
        quantity: f.quantity,
        isMaker: f.isMaker,
        fee: f.fee,
        feeToken: f.feeToken,
        pnl: f.pnl,
        time: f.time ?? event.ts,
        ...(f.matchOrderId === undefined ? {} : { matchOrderId: f.matchOrderId }),
      });
      return f.flows;
    }
    case 'PositionMarginModified':
      balance(event.payload.balance);
      position(event.payload.position);
      return [];
    case 'FundingSettled':
      for (const payment of event.payload.payments) {
        balance(payment.balance);
        position(payment.position);
      }
      balance(event.payload.insurance);
      if (event.payload.clearing) balance(event.payload.clearing);
      uncovered(event.payload.insurance.accountId, event.payload.uncovered);
      fundingSettled(rows, event.payload.symbol, event.payload.insurance.accountId, event.payload.fundingTime);
      return event.payload.flows;
    case 'FundingContinued': {
      const { fundAccountId, symbol, fundingTime, after, part } = event.payload;
      rows.fundingCursors.set(fundingCursorKey(symbol, fundAccountId, fundingTime), {
        symbol,
        fundAccountId,
        fundingTime,
        after,
        part,
      });
      return [];
    }
    case 'PositionLiquidated':
      balance(event.payload.balance);
      position(event.payload.position);
      position(event.payload.fundPosition);
      return event.payload.flows;
    case 'PositionDeleveraged':
      balance(event.payload.balance);
      position(event.payload.position);
      for (const c of event.payload.counterparties) {
        balance(c.balance);
        position(c.position);
        uncovered(c.accountId, c.uncovered);
      }
      return event.payload.flows;
    case 'ContractMarkPriced':
      rows.marks.set(`${event.payload.fundAccountId}|${event.payload.symbol}`, event.payload);
      return [];
    case 'ContractCancelRequested':
      // The fold keeps a liquidation's reason through a later request that names none.
      rows.cancelRequests.set(
        event.payload.order.orderId,
        event.payload.reason ?? rows.cancelRequests.get(event.payload.order.orderId) ?? null,
      );
      return [];
    case 'ContractOrderRested':
    case 'AdlCandidatesReceived':
    case 'LiquidationContinued':
      return [];
    case 'AdlRequested':
      position(event.payload.fundPosition);
      for (const p of event.payload.reserved) position(p);
      return [];
    case 'AdlCandidatesReserved':
      for (const p of event.payload.reserved) position(p);
      return [];
    case 'AdlResolved':
      balance(event.payload.fundBalance);
      position(event.payload.fundPosition);
      return event.payload.flows;
    case 'AdlApplied':
      for (const c of event.payload.counterparties) {
        balance(c.balance);
        position(c.position);
      }
      for (const p of event.payload.released) position(p);
      return event.payload.flows;
    default: {
      const unexpected: never = event;
      throw new Error(`contract projection: unknown event ${(unexpected as ContractJournalEvent).type}`);
    }
  }
}

/** A settlement's part: the last funding time, and the end of the part's cursor (a FundingContinued after it sets the next). */
function fundingSettled(rows: ContractRows, symbol: string, fundAccountId: string, fundingTime: number): void {
  rows.fundings.set(`${fundAccountId}|${symbol}`, { fundAccountId, symbol, fundingTime });
  rows.fundingCursors.set(fundingCursorKey(symbol, fundAccountId, fundingTime), {
    key: { symbol, fundAccountId, fundingTime },
    ended: true,
  });
}

/** A change to an order placed in this batch is merged into its record; otherwise it updates the stored one. */
function changeOrder(rows: ContractRows, change: ContractOrderChange, ts: number): void {
  const placed = rows.orders.get(change.orderId);
  if (placed)
    rows.orders.set(change.orderId, {
      ...placed,
      executedQty: change.executedQty,
      marginLeft: change.marginLeft,
      status: change.status,
      updateTime: ts,
    });
  else rows.orderChanges.set(change.orderId, { ...change, updateTime: ts });
}

export async function writeContractRows(runner: QueryRunner, schema: string, rows: ContractRows): Promise<void> {
  const s = `"${schema}"`;
  if (rows.balances.size > 0) {
    const b = [...rows.balances.values()];
    await runner.query(
      `INSERT INTO ${s}.contract_balances (account_id, free, locked, position_margin)
       SELECT * FROM unnest($1::bigint[], $2::numeric[], $3::numeric[], $4::numeric[])
       ON CONFLICT (account_id) DO UPDATE SET free = EXCLUDED.free, locked = EXCLUDED.locked, position_margin = EXCLUDED.position_margin`,
      [b.map((r) => r.accountId), b.map((r) => r.free), b.map((r) => r.locked), b.map((r) => r.positionMargin)],
    );
  }
  if (rows.positions.size > 0) {
    const p = [...rows.positions.values()];
    await runner.query(
      `INSERT INTO ${s}.contract_positions (account_id, symbol, side, size, update_time, record)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::numeric[], $5::bigint[], $6::jsonb[])
       ON CONFLICT (account_id, symbol, side) DO UPDATE SET size = EXCLUDED.size, update_time = EXCLUDED.update_time, record = EXCLUDED.record`,
      [
        p.map((r) => r.accountId),
        p.map((r) => r.symbol),
        p.map((r) => r.side),
        p.map((r) => r.size),
        p.map((r) => r.updateTime),
        p.map(({ updateTime: _t, ...r }) => JSON.stringify(r)),
      ],
    );
  }
  await writeOrders(runner, s, rows);
  if (rows.fundings.size > 0) {
    const f = [...rows.fundings.values()];
    await runner.query(
      `INSERT INTO ${s}.contract_fundings (fund_account_id, symbol, funding_time)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[])
       ON CONFLICT (fund_account_id, symbol) DO UPDATE SET funding_time = GREATEST(${s}.contract_fundings.funding_time, EXCLUDED.funding_time)`,
      [f.map((r) => r.fundAccountId), f.map((r) => r.symbol), f.map((r) => r.fundingTime)],
    );
  }
  await writeFundingCursors(runner, s, rows);
  if (rows.uncovered.size > 0) {
    const u = [...rows.uncovered];
    await runner.query(
      `INSERT INTO ${s}.contract_uncovered AS u (account_id, amount) SELECT * FROM unnest($1::bigint[], $2::numeric[])
       ON CONFLICT (account_id) DO UPDATE SET amount = u.amount + EXCLUDED.amount`,
      [u.map(([accountId]) => accountId), u.map(([, amount]) => amount.toFixed())],
    );
  }
  if (rows.marks.size > 0) {
    const m = [...rows.marks.values()];
    await runner.query(
      `INSERT INTO ${s}.contract_marks (fund_account_id, symbol, mark_price, index_price, at)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::numeric[], $4::numeric[], $5::bigint[])
       ON CONFLICT (fund_account_id, symbol) DO UPDATE SET mark_price = EXCLUDED.mark_price, index_price = EXCLUDED.index_price, at = EXCLUDED.at`,
      [
        m.map((r) => r.fundAccountId),
        m.map((r) => r.symbol),
        m.map((r) => r.markPrice),
        m.map((r) => r.indexPrice),
        m.map((r) => r.at),
      ],
    );
  }
  if (rows.trades.length > 0) {
    const t = rows.trades;
    await runner.query(
      `INSERT INTO ${s}.contract_trades (trade_id, account_id, order_id, symbol, time, record)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::bigint[], $6::jsonb[]) ON CONFLICT DO NOTHING`,
      [
        t.map((r) => r.tradeId),
        t.map((r) => r.accountId),
        t.map((r) => r.orderId),
        t.map((r) => r.symbol),
        t.map((r) => r.time),
        t.map((r) => JSON.stringify(r)),
      ],
    );
  }
}

/** A cursor's row as the batch left it: moved on (upserted) or ended by its settlement's last part (deleted). */
async function writeFundingCursors(runner: QueryRunner, s: string, rows: ContractRows): Promise<void> {
  const all = [...rows.fundingCursors.values()];
  const ended = all.flatMap((c) => ('ended' in c ? [c.key] : []));
  const live = all.flatMap((c) => ('ended' in c ? [] : [c]));
  if (ended.length > 0)
    await runner.query(
      `DELETE FROM ${s}.contract_funding_cursors c USING unnest($1::bigint[], $2::text[], $3::bigint[]) AS r(fund, symbol, t)
       WHERE c.fund_account_id = r.fund AND c.symbol = r.symbol AND c.funding_time = r.t`,
      [ended.map((c) => c.fundAccountId), ended.map((c) => c.symbol), ended.map((c) => c.fundingTime)],
    );
  if (live.length > 0)
    await runner.query(
      `INSERT INTO ${s}.contract_funding_cursors (fund_account_id, symbol, funding_time, after, part)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::int[])
       ON CONFLICT (fund_account_id, symbol, funding_time) DO UPDATE SET after = EXCLUDED.after, part = EXCLUDED.part`,
      [
        live.map((c) => c.fundAccountId),
        live.map((c) => c.symbol),
        live.map((c) => c.fundingTime),
        live.map((c) => c.after),
        live.map((c) => c.part),
      ],
    );
}

async function writeOrders(runner: QueryRunner, s: string, rows: ContractRows): Promise<void> {
  if (rows.orders.size > 0) {
    const o = [...rows.orders.values()];
    await runner.query(
      `INSERT INTO ${s}.contract_orders (order_id, account_id, user_id, client_order_id, symbol, status, time, update_time, record)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::jsonb[])
       ON CONFLICT (order_id) DO UPDATE SET status = EXCLUDED.status, update_time = EXCLUDED.update_time, record = EXCLUDED.record,
         cancel_requested = false, cancel_reason = NULL`,
      [
        o.map((r) => r.orderId),
        o.map((r) => r.accountId),
        o.map((r) => r.userId),
        o.map((r) => r.clientOrderId ?? null),
        o.map((r) => r.symbol),
        o.map((r) => r.status),
        o.map((r) => r.time),
        o.map((r) => r.updateTime),
        o.map(({ updateTime: _t, ...r }) => JSON.stringify(r)),
      ],
    );
  }
  if (rows.orderChanges.size > 0) {
    const c = [...rows.orderChanges.values()];
    await runner.query(
      `UPDATE ${s}.contract_orders o SET status = r.status, update_time = r.t,
         record = o.record || jsonb_build_object('executedQty', r.executed, 'marginLeft', r.margin_left, 'status', r.status)
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[]) AS r(id, executed, margin_left, status, t) WHERE o.order_id = r.id`,
      [
        c.map((r) => r.orderId),
        c.map((r) => r.executedQty),
        c.map((r) => r.marginLeft),
        c.map((r) => r.status),
        c.map((r) => r.updateTime),
      ],
    );
  }
  if (rows.cancelRequests.size > 0) {
    // After the inserts: an order placed and asked to cancel in one batch has its row by now.
    const r = [...rows.cancelRequests];
    await runner.query(
      `UPDATE ${s}.contract_orders o SET cancel_requested = true, cancel_reason = COALESCE(r.reason, o.cancel_reason)
       FROM unnest($1::bigint[], $2::text[]) AS r(id, reason) WHERE o.order_id = r.id`,
      [r.map(([orderId]) => orderId), r.map(([, reason]) => reason)],
    );
  }
}
