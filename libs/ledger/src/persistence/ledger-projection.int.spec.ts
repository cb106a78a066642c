import type { FlowEntry } from '@exchange/contracts';
import { shippedMarkets as markets } from '../domain/contracts/contract-scenario.fixtures';
import { PartitionDriver } from '../processing/partition-driver.fixtures';
import { tradeFlows } from '../domain/trade-flows';
import { projectionRows, writeProjection } from './ledger-projection';
import { ledgerSchemaForSpecs } from './ledger-schema.fixtures';

const ALICE = { userId: '500', accountId: '5001' };
const BOB = { userId: '501', accountId: '5011' };

/** bob's SELL rests, alice's BUY takes part of it and fills, alice's second BUY is canceled. */
function tradedPartition(): PartitionDriver {
  const p = new PartitionDriver();
  p.givenUsers(500, 2);
  p.send('CreditDeposit', { ...ALICE, depositId: '1', asset: 'USDT', amount: '10000' });
  p.send('CreditDeposit', { ...BOB, depositId: '2', asset: 'BTC', amount: '1' });
  const terms = { symbol: 'BTCUSDT', type: 'LIMIT', timeInForce: 'GTC', marketsVersion: markets.version };
  const outcome = (who: typeof ALICE, orderId: string, side: string, out: string, extra = {}) =>
    p.decide({
      type: 'ApplyOrderOutcome',
      v: 2,
      id: `o${orderId}${out}`,
      ts: 0,
      payload: { ...who, symbol: 'BTCUSDT', orderId, side, outcome: out, ...extra },
    } as never);
  const leg = (who: typeof ALICE, orderId: string, side: string, isMaker: boolean) =>
    p.decide({
      type: 'SettleTradeLeg',
      v: 2,
      id: `l${orderId}`,
      ts: 0,
      payload: {
        ...who,
        symbol: 'BTCUSDT',
        orderId,
        matchOrderId: '0',
        side,
        tradeId: '1',
        price: '29500',
        qty: '0.12345',
        quoteQty: '3641.775',
        isMaker,
      },
    } as never);
  p.send('PlaceOrder', {
    ...BOB,
    ...terms,
    orderId: '7',
    clientOrderId: 'bob:7.a_b-c',
    side: 'SELL',
    price: '29500',
    quantity: '0.5',
  });
  outcome(BOB, '7', 'SELL', 'ACCEPTED', { remainingQty: '0.5' });
  outcome(BOB, '7', 'SELL', 'RESTED', { remainingQty: '0.5' });
  p.send('PlaceOrder', {
    ...ALICE,
    ...terms,
    orderId: '8',
    clientOrderId: 'alice-8',
    side: 'BUY',
    price: '30000',
    quantity: '0.12345',
  });
  outcome(ALICE, '8', 'BUY', 'ACCEPTED', { remainingQty: '0.12345' });
  leg(ALICE, '8', 'BUY', false);
  leg(BOB, '7', 'SELL', true);
  outcome(ALICE, '8', 'BUY', 'FILLED');
  p.send('PlaceOrder', {
    ...ALICE,
    ...terms,
    orderId: '9',
    clientOrderId: 'alice-9',
    side: 'BUY',
    price: '100',
    quantity: '0.1',
  });
  outcome(ALICE, '9', 'BUY', 'ACCEPTED', { remainingQty: '0.1' });
  outcome(ALICE, '9', 'BUY', 'CANCELED', { reason: 'USER', remainingQty: '0.1' });
  return p;
}

describe('writeProjection: the order path tables', () => {
  const { schema, dataSource: db } = ledgerSchemaForSpecs('lp');

  it('holds every order, trade, flow and balance as the journal left them, however the events were batched', async () => {
    const p = tradedPartition();
    // The placements in one batch, the trade and outcomes in the next: order changes merge into earlier rows.
    const cut = p.journal.findIndex((e) => e.type === 'TradeSettled');
    for (const batch of [p.journal.slice(0, cut), p.journal.slice(cut)])
      await db().transaction((m) =>
        writeProjection(
          m.queryRunner!,
          schema,
          projectionRows(batch, () => 0),
        ),
      );
    const orders = await db().query(
      `SELECT order_id::text, account_id::text, user_id::text, client_order_id, symbol, status, time::text, update_time::text, final_time::text, record
       FROM "${schema}".orders ORDER BY order_id`,
    );
    expect(orders).toMatchObject([
      {
        order_id: '7',
        account_id: '5011',
        user_id: '501',
        client_order_id: 'bob:7.a_b-c',
        status: 'PARTIALLY_FILLED',
        final_time: null,
      },
      { order_id: '8', account_id: '5001', user_id: '500', client_order_id: 'alice-8', status: 'FILLED' },
      { order_id: '9', account_id: '5001', user_id: '500', client_order_id: 'alice-9', status: 'CANCELED' },
    ]);
    for (const o of orders) {
      expect(o).toMatchObject({
        symbol: 'BTCUSDT',
        time: String(o.record.time),
        update_time: String(o.record.updateTime),
      });
      expect(o.final_time).toBe(o.record.finalTime === undefined ? null : String(o.record.finalTime));
      expect(o.record).toMatchObject({ orderId: o.order_id, clientOrderId: o.client_order_id, status: o.status });
    }
    expect(orders[1].record).toMatchObject({
      executedQty: '0.12345',
      cummulativeQuoteQty: '3641.775',
      isWorking: false,
    });

    const trades = await db().query(
      `SELECT trade_id::text, account_id::text, order_id::text, symbol, time::text, record FROM "${schema}".trades ORDER BY account_id`,
    );
    const settled = p.journal.flatMap((e) => (e.type === 'TradeSettled' ? [e] : []));
    expect(trades).toEqual(
      settled
        .map(({ payload: { trade } }) => ({
          trade_id: trade.tradeId,
          account_id: trade.accountId,
          order_id: trade.orderId,
          symbol: trade.symbol,
          time: String(trade.time),
          record: trade,
        }))
        .sort((x, y) => x.account_id.localeCompare(y.account_id)),
    );
    expect(trades[0].record).toMatchObject({ isBuyer: true, qty: '0.12345', price: '29500' });

    const balances = await db().query(
      `SELECT account_id::text, asset, free::text, locked::text FROM "${schema}".balances ORDER BY account_id, asset`,
    );
    const fromFold = [...p.state.accounts]
      .flatMap(([accountId, a]) =>
        [...a.balances].map(([asset, b]) => ({
          account_id: accountId,
          asset,
          free: b.free.toFixed(),
          locked: b.locked.toFixed(),
        })),
      )
      .sort((x, y) => x.account_id.localeCompare(y.account_id) || x.asset.localeCompare(y.asset));
    expect(balances).toEqual(fromFold);
    expect(balances).toContainEqual({ account_id: '5001', asset: 'USDT', free: '6358.225', locked: '0' });

    const flows = await db().query(
      `SELECT flow_id::text, account_id::text, asset, flow_type, change::text, total::text FROM "${schema}".balance_flows ORDER BY flow_id`,
    );
    const journaled = p.journal.flatMap((e) =>
      e.type === 'TradeSettled'
        ? (e.payload.flows ?? tradeFlows(e))
        : 'flows' in e.payload
          ? (e.payload.flows as FlowEntry[])
          : [],
    );
    expect(flows).toEqual(
      journaled
        .map((f) => ({
          flow_id: f.flowId,
          account_id: f.accountId,
          asset: f.asset,
          flow_type: f.flowType,
          change: f.change,
          total: f.total,
        }))
        .sort((x, y) => Number(x.flow_id) - Number(y.flow_id)),
    );
    expect(
      flows
        .filter((f: { account_id: string }) => f.account_id === '5001')
        .map((f: { flow_type: string }) => f.flow_type),
    ).toEqual(['DEPOSIT', 'TRADE', 'TRADE', 'FEE']);
  });
});
