import { chainOf, depositAddressOf, internalRecipientOf, looksInternal } from './chain-addresses';
import type { AssetConfig } from '../markets/markets.schema';

const usdt: AssetConfig = {
  asset: 'USDT',
  precision: 6,
  wallet: {
    withdrawFee: '1',
    minWithdraw: '10',
    confirmations: 6,
    autoApproveBelow: '0',
    chains: ['OMNI', 'ERC20', 'TRC20'],
  },
};
const btc: AssetConfig = { asset: 'BTC', precision: 8 };

describe('exchange deposit addresses', () => {
  const to = { userId: '123456789012345', accountId: '987654321098765' };

  it('decode to their account for the same token and chain only', () => {
    const address = depositAddressOf(to, 'USDT', 'TRC20');
    expect(looksInternal(address)).toBe(true);
    expect(internalRecipientOf(address, 'USDT', 'TRC20')).toEqual(to);
    expect(internalRecipientOf(address, 'USDT', 'ERC20')).toBeUndefined();
    expect(internalRecipientOf(address, 'BTC', 'BTC')).toBeUndefined();
    expect(depositAddressOf(to, 'USDT', 'TRC20')).toBe(address);
  });

  it('never take a mistyped or forged address for an internal one', () => {
    const address = depositAddressOf(to, 'BTC', 'BTC');
    const flipped = address.slice(0, -1) + (address.endsWith('0') ? '1' : '0');
    expect(internalRecipientOf(flipped, 'BTC', 'BTC')).toBeUndefined();
    expect(internalRecipientOf(address.replace('x', 'y'), 'BTC', 'BTC')).toBeUndefined();
    expect(internalRecipientOf('bc1qsomewhere', 'BTC', 'BTC')).toBeUndefined();
    expect(internalRecipientOf('ex10x0x0000000000', 'BTC', 'BTC')).toBeUndefined();
  });

  it("name the chain: one of the asset's (the first by default), or the asset's own", () => {
    expect(chainOf(usdt, undefined)).toBe('OMNI');
    expect(chainOf(usdt, 'TRC20')).toBe('TRC20');
    expect(chainOf(usdt, 'BEP20')).toBeUndefined();
    expect(chainOf(btc, undefined)).toBe('BTC');
    expect(chainOf(btc, 'ERC20')).toBe('BTC');
  });
});
