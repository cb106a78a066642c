import { shippedMarkets as markets, T0 } from '../domain/contracts/contract-scenario.fixtures';
import { insuranceAccountIdOf } from '../domain/ledger-ids';
import { initialLedgerState } from '../domain/ledger-state';
import { ledgerStateHash } from '../domain/ledger-state-hash';
import { PartitionDriver, SWAP } from '../processing/partition-driver.fixtures';
import { projectionRows, writeProjection } from './ledger-projection';
import { ledgerSchemaForSpecs } from './ledger-schema.fixtures';
import { LedgerStore } from './ledger-store';

/**
 * A partition whose contracts fold holds what only the fold used to: a loss the fund could not pay
 * (uncovered), an order whose cancel a user requested and one a liquidation requested, and a
 * funding settlement part-way (its cursor).
 */
function partitionWithEverything(): PartitionDriver {
  const p = new PartitionDriver();
  // 600 positions at 2× (liquidated far below 44000); the SHORT of 30001 has almost no margin, so
  // its funding goes unpaid and the fund, empty, cannot make the receipts up.
  p.givenUsers(30_000, 600).forEach((accountId, i) => {
    const side = i % 2 === 0 ? 'LONG' : 'SHORT';
    p.givenPosition(String(30_000 + i), accountId, side, '1', '50000', i === 1 ? '0.00000001' : '25');
  });
  const [alice, bob] = p.givenUsers(40_000, 2) as [string, string];
  p.send('CreditDeposit', { userId: '40000', accountId: '400001', depositId: '1', asset: 'USDT', amount: '100' });
  p.send('TransferFunds', {
    userId: '40000',
    transferId: '2',
    fromAccountId: '400001',
    toAccountId: alice,
    asset: 'USDT',
    amount: '100',
  });
  const order = { symbol: SWAP, quantity: '1', marketsVersion: markets.version };
  p.send('PlaceContractOrder', {
    userId: '40000',
    accountId: alice,
    orderId: '7001',
    side: 'BUY_OPEN',
    price: '40000',
    leverage: '10',
    clientOrderId: 'a1',
    ...order,
  });
  p.send('RequestContractCancel', { userId: '40000', accountId: alice, orderId: '7001' });
  // Bob's LONG (10×) is crossed at 44000 while his closing order rests: the liquidation requests its cancel and waits.
  p.givenPosition('40001', bob, 'LONG', '1', '50000', '5');
  p.send('PlaceContractOrder', {
    userId: '40001',
    accountId: bob,
    orderId: '7002',
    side: 'SELL_CLOSE',
    price: '60000',
    clientOrderId: 'b1',
    ...order,
  });
  p.send('MarkContractPrice', {
    symbol: SWAP,
    markPrice: '44000',
    indexPrice: '44000',
    marketsVersion: markets.version,
  });
  p.send('SettleFunding', { symbol: SWAP, fundingTime: 8 * 3_600_000, rate: '-0.0003', markPrice: '50000' });
  return p;
}

describe('loadContracts: the contracts fold from the tables', () => {
  const { schema, dataSource: db } = ledgerSchemaForSpecs('cs');

  it("loads the uncovered amounts, cancel marks and a funding cursor, so its hash is the journal fold's", async () => {
    const p = partitionWithEverything();
    const c = p.state.contracts;
    expect(c.uncovered.get(insuranceAccountIdOf(0))!.gt(0)).toBe(true);
    expect([c.orders.get('7001'), c.orders.get('7002')]).toMatchObject([
      { cancelRequested: true },
      { cancelRequested: true, cancelReason: 'LIQUIDATION' },
    ]);
    expect(c.orders.get('7001')!.cancelReason).toBeUndefined();
    expect(c.fundingCursors.size).toBe(1);

    // Written in two batches, as the projector might: the cursor and the amounts go on across them.
    const half = Math.floor(p.journal.length / 2);
    for (const batch of [p.journal.slice(0, half), p.journal.slice(half)])
      await db().transaction((m) =>
        writeProjection(
          m.queryRunner!,
          schema,
          projectionRows(batch, () => 0),
        ),
      );
    const fromTables = initialLedgerState();
    await new LedgerStore(db(), schema, () => 0).loadPartition(fromTables, 'ledger.commands', 0, T0);
    expect(ledgerStateHash(fromTables)).toBe(ledgerStateHash(p.state));
  });
});
