import type { DepositRecord, WithdrawalAddressEntry, WithdrawalRecord } from '@exchange/contracts';
import { walletStateHash } from './wallet-state-hash';
import { initialWalletState, type WalletState } from './wallet-state';

const withdrawal = (id: string, status: number): WithdrawalRecord =>
  ({
    withdrawalId: id,
    accountId: '1001',
    asset: 'ETH',
    quantity: '0.5',
    status,
    time: 1,
  }) as unknown as WithdrawalRecord;
const deposit = (id: string): DepositRecord =>
  ({ depositId: id, asset: 'ETH', txid: `t${id}`, quantity: '1' }) as unknown as DepositRecord;
const address = (id: string): WithdrawalAddressEntry =>
  ({ id, accountId: '1001', tokenId: 'ETH', address: '0xabc' }) as unknown as WithdrawalAddressEntry;

function stateOf(
  withdrawals: WithdrawalRecord[],
  deposits: DepositRecord[],
  addresses: WithdrawalAddressEntry[],
): WalletState {
  const state = initialWalletState();
  for (const w of withdrawals) state.withdrawals.set(w.withdrawalId, w);
  for (const d of deposits) state.deposits.set(d.depositId, d);
  for (const a of addresses) state.addresses.set(a.id, a);
  return state;
}

describe('walletStateHash', () => {
  it("hashes the same records alike whatever order the maps and the records' keys were filled in (jsonb reorders keys)", () => {
    const a = stateOf([withdrawal('1', 4), withdrawal('2', 6)], [deposit('9')], [address('5')]);
    const reordered = Object.fromEntries(Object.entries(withdrawal('2', 6)).reverse()) as unknown as WithdrawalRecord;
    const b = stateOf([reordered, withdrawal('1', 4)], [deposit('9')], [address('5')]);
    expect(walletStateHash(b)).toBe(walletStateHash(a));
    expect(walletStateHash(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells apart a withdrawal one status further, a missing deposit and a removed address entry', () => {
    const base = walletStateHash(stateOf([withdrawal('1', 4)], [deposit('9')], [address('5')]));
    expect(walletStateHash(stateOf([withdrawal('1', 5)], [deposit('9')], [address('5')]))).not.toBe(base);
    expect(walletStateHash(stateOf([withdrawal('1', 4)], [], [address('5')]))).not.toBe(base);
    expect(walletStateHash(stateOf([withdrawal('1', 4)], [deposit('9')], []))).not.toBe(base);
  });

  it('does not let a record of one kind pass for another', () => {
    expect(walletStateHash(stateOf([], [deposit('1')], []))).not.toBe(
      walletStateHash(stateOf([], [], [{ ...deposit('1'), id: '1' } as unknown as WithdrawalAddressEntry])),
    );
  });
});
