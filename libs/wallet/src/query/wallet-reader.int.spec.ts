import type {
  DepositRecord,
  WalletEvent,
  WithdrawalAddressEntry,
  WithdrawalRecord,
  WithdrawalStatusCode,
} from '@exchange/contracts';
import { ReadModelSchema, T0 } from '../../../../test/support/read-model-schema';
import { WalletReader } from './wallet-reader';

const ALICE = { userId: '100', accountId: '1001' };
const BOB = { userId: '200', accountId: '2001' };
let n = 0;

function event<T extends WalletEvent['type']>(
  type: T,
  payload: Omit<Extract<WalletEvent, { type: T }>['payload'], 'commandId'>,
): WalletEvent {
  const commandId = `w${++n}`;
  return { type, v: 1, id: `${commandId}:0`, ts: T0 + n, payload: { ...payload, commandId } } as unknown as WalletEvent;
}

function withdrawal(
  who: typeof ALICE,
  withdrawalId: string,
  status: WithdrawalStatusCode,
  time: number,
  asset = 'BTC',
): WithdrawalRecord {
  return {
    ...who,
    withdrawalId,
    clientOrderId: `cw${withdrawalId}`,
    asset,
    chainType: asset,
    address: 'addr',
    addressExt: '',
    quantity: '0.1',
    fee: '0.0005',
    status,
    time,
    updateTime: time,
    requiredConfirmations: 2,
    confirmations: 0,
    txid: '',
    reason: '',
    history: [{ from: 0, to: status, time }],
  };
}

function deposit(who: typeof ALICE, depositId: string, time: number, credited: boolean, asset = 'BTC'): DepositRecord {
  return {
    ...who,
    depositId,
    asset,
    chainType: asset,
    address: 'addr',
    addressTag: '',
    fromAddress: 'from',
    fromAddressTag: '',
    txid: `tx${depositId}`,
    quantity: '1',
    confirmations: credited ? 2 : 1,
    requiredConfirmations: 2,
    status: credited ? 'CREDITED' : 'CONFIRMING',
    time,
    ...(credited ? { creditTime: time + 1 } : {}),
  };
}

function entry(who: typeof ALICE, id: string, tokenId: string): WithdrawalAddressEntry {
  return { ...who, id, tokenId, chainType: tokenId, address: `a${id}`, addressExt: '', created: T0 };
}

/** The wallet's migrations, its projection of its events and WalletReader, together on PostgreSQL. */
describe('WalletReader on the tables the wallet projects', () => {
  let tables: ReadModelSchema;
  let reader: WalletReader;

  beforeAll(async () => {
    tables = await ReadModelSchema.open('wallet');
    reader = new WalletReader(tables.queries);
    await tables.projectWallet([
      event('WithdrawalAddressAdded', { userId: '100', entry: entry(ALICE, '1', 'BTC') }),
      event('WithdrawalAddressAdded', { userId: '100', entry: entry(ALICE, '2', 'USDT') }),
      event('WithdrawalAddressAdded', { userId: '100', entry: entry(ALICE, '3', 'BTC') }),
      event('WithdrawalAddressRemoved', { userId: '100', entry: entry(ALICE, '3', 'BTC') }),
      event('WithdrawalTracked', { userId: '100', withdrawal: withdrawal(ALICE, '11', 1, T0 + 10), transitions: [] }),
      event('WithdrawalTracked', {
        userId: '100',
        withdrawal: withdrawal(ALICE, '12', 3, T0 + 20, 'USDT'),
        transitions: [],
      }),
      event('WithdrawalTracked', { userId: '200', withdrawal: withdrawal(BOB, '13', 3, T0 + 5), transitions: [] }),
      event('WithdrawalAdvanced', { userId: '200', withdrawal: withdrawal(BOB, '13', 6, T0 + 5), transitions: [] }),
      event('WithdrawalTracked', { userId: '100', withdrawal: withdrawal(ALICE, '14', 5, T0 + 30), transitions: [] }),
      event('DepositReported', {
        userId: '100',
        deposit: deposit(ALICE, '21', T0 + 1, true),
        credited: true,
        repeated: false,
      }),
      event('DepositReported', {
        userId: '100',
        deposit: deposit(ALICE, '22', T0 + 2, true, 'USDT'),
        credited: true,
        repeated: false,
      }),
      event('DepositReported', {
        userId: '100',
        deposit: deposit(ALICE, '23', T0 + 3, false),
        credited: false,
        repeated: false,
      }),
      event('DepositReported', {
        userId: '200',
        deposit: deposit(BOB, '24', T0 + 4, true),
        credited: true,
        repeated: false,
      }),
    ]);
  });
  afterAll(async () => tables.close());

  it("reads an account's address book, by token, and one entry by id", async () => {
    expect((await reader.addressBook('1001')).map((e) => e.id)).toEqual(['1', '2']);
    expect((await reader.addressBook('1001', 'USDT')).map((e) => e.id)).toEqual(['2']);
    expect(await reader.addressEntry('1')).toEqual(entry(ALICE, '1', 'BTC'));
    expect(await reader.addressEntry('3')).toBeUndefined();
  });

  it('finds a withdrawal by id (within an account when asked) or by client id', async () => {
    expect(await reader.withdrawal({ withdrawalId: '13' })).toMatchObject({ withdrawalId: '13', status: 6 });
    expect(await reader.withdrawal({ withdrawalId: '13', accountId: '1001' })).toBeUndefined();
    expect(await reader.withdrawal({ clientOrderId: 'cw12', accountId: '1001' })).toMatchObject({ withdrawalId: '12' });
    expect(await reader.withdrawal({ clientOrderId: 'cw12', accountId: '2001' })).toBeUndefined();
  });

  it("lists an account's withdrawals newest first, by asset, id and time", async () => {
    const ids = async (q: Partial<Parameters<WalletReader['withdrawals']>[0]>): Promise<string[]> =>
      (await reader.withdrawals({ accountId: '1001', limit: 10, ...q })).map((w) => w.withdrawalId);
    expect(await ids({})).toEqual(['14', '12', '11']);
    expect(await ids({ asset: 'BTC' })).toEqual(['14', '11']);
    expect(await ids({ fromId: '14' })).toEqual(['12', '11']);
    expect(await ids({ startTime: T0 + 15, endTime: T0 + 25 })).toEqual(['12']);
  });

  it('lists withdrawals awaiting an audit, of every account, oldest first', async () => {
    expect((await reader.awaitingAudit(10)).map((w) => w.withdrawalId)).toEqual(['11', '12']);
  });

  it("lists credited deposits by depositOrders' rules, and the latest of every account for the console", async () => {
    const ids = async (q: Partial<Parameters<WalletReader['deposits']>[0]>): Promise<string[]> =>
      (await reader.deposits({ accountId: '1001', limit: 10, ...q })).map((d) => d.depositId);
    expect(await ids({})).toEqual(['22', '21']);
    expect(await ids({ fromId: '21' })).toEqual(['22']);
    expect(await ids({ asset: 'USDT' })).toEqual(['22']);
    expect(await ids({ startTime: T0 + 3 })).toEqual(['22']);
    expect((await reader.latestDeposits(3)).map((d) => d.depositId)).toEqual(['24', '23', '22']);
  });
});
