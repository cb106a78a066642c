import { parseWalletEvent, type WalletEvent, walletEventSchema } from './wallet-events';
import type { WithdrawalRecord } from './wallet-records';

const withdrawal: WithdrawalRecord = {
  userId: '11',
  accountId: '1101',
  withdrawalId: '7',
  clientOrderId: 'w-1',
  asset: 'BTC',
  chainType: 'BTC',
  address: 'addr',
  addressExt: '',
  quantity: '0.5',
  fee: '0.0005',
  status: 5,
  time: 1,
  updateTime: 2,
  requiredConfirmations: 2,
  confirmations: 0,
  txid: '',
  reason: '',
  history: [
    { from: 0, to: 3, time: 1 },
    { from: 3, to: 5, time: 2 },
  ],
};
const events: WalletEvent[] = [
  {
    type: 'WithdrawalTracked',
    v: 1,
    id: 'c1:0',
    ts: 1,
    payload: { userId: '11', commandId: 'c1', withdrawal, transitions: withdrawal.history },
  },
  {
    type: 'WithdrawalConfirmationsUpdated',
    v: 1,
    id: 'c2:0',
    ts: 2,
    payload: { userId: '11', commandId: 'c2', withdrawal: { ...withdrawal, confirmations: 1 } },
  },
  {
    type: 'DepositReported',
    v: 1,
    id: 'c3:0',
    ts: 3,
    payload: {
      userId: '11',
      commandId: 'c3',
      credited: true,
      repeated: false,
      deposit: {
        depositId: '9',
        userId: '11',
        accountId: '1101',
        asset: 'BTC',
        chainType: 'BTC',
        address: 'a',
        addressTag: '',
        fromAddress: 'f',
        fromAddressTag: '',
        txid: 't',
        quantity: '1',
        confirmations: 2,
        requiredConfirmations: 2,
        status: 'CREDITED',
        time: 3,
        creditTime: 4,
      },
    },
  },
  {
    type: 'WithdrawalAddressAdded',
    v: 1,
    id: 'c4:0',
    ts: 4,
    payload: {
      userId: '11',
      commandId: 'c4',
      entry: {
        id: '5',
        userId: '11',
        accountId: '1101',
        tokenId: 'BTC',
        chainType: 'BTC',
        address: 'a',
        addressExt: '',
        created: 4,
      },
    },
  },
  {
    type: 'WalletCommandRejected',
    v: 1,
    id: 'c5:0',
    ts: 5,
    payload: { userId: '11', commandId: 'c5', commandType: 'ApproveWithdrawal', code: -1130, msg: 'not waiting' },
  },
];

describe('wallet events at the door', () => {
  it.each(events.map((e) => [e.type, e] as const))('reads a %s back as it was written', (_type, event) => {
    expect(parseWalletEvent(JSON.stringify(event))).toEqual(event);
  });

  it('refuses what is not a wallet event: not JSON, an unknown type, a record missing a field, a status no withdrawal has', () => {
    expect(parseWalletEvent('{')).toBeUndefined();
    expect(parseWalletEvent(JSON.stringify({ ...events[0], type: 'WithdrawalVanished' }))).toBeUndefined();
    const { txid: _txid, ...noTxid } = withdrawal;
    expect(
      walletEventSchema.safeParse({ ...events[0], payload: { ...events[0]!.payload, withdrawal: noTxid } }).success,
    ).toBe(false);
    expect(
      walletEventSchema.safeParse({
        ...events[0],
        payload: { ...events[0]!.payload, withdrawal: { ...withdrawal, status: 9 } },
      }).success,
    ).toBe(false);
  });
});
