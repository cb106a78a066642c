import type { SecretBox } from '@exchange/platform';
import type { AccountRow, LedgerReader } from '@exchange/ledger-query';
import { ApiKeyDirectory } from './api-key-directory';

const account: AccountRow = {
  accountId: '7',
  userId: '3',
  accountType: 1,
  accountIndex: 0,
  accountName: '',
  canTrade: true,
  canWithdraw: true,
  canDeposit: true,
};
const box = { decrypt: (cipher: string) => `secret-of-${cipher}` } as unknown as SecretBox;

function readerOfKeys(revoked: Set<string>, reads: { n: number }): LedgerReader {
  return {
    apiKey: async (apiKey: string) => {
      reads.n++;
      return { apiKey, accountId: '7', permissions: ['read'], secretCiphertext: apiKey, revoked: revoked.has(apiKey) };
    },
    account: async () => account,
  } as unknown as LedgerReader;
}

describe('ApiKeyDirectory', () => {
  it('keeps a revoked key out even when a read raced the revocation', async () => {
    const revoked = new Set<string>();
    const directory = new ApiKeyDirectory(readerOfKeys(revoked, { n: 0 }), box);
    expect((await directory.find('k1'))?.secretKey).toBe('secret-of-k1');
    directory.apply({
      type: 'ApiKeyRevoked',
      v: 1,
      id: 'r',
      ts: 0,
      payload: { userId: '3', seq: 2, commandId: 'r', apiKey: 'k1' },
    } as never);
    expect(await directory.find('k1')).toBeUndefined();
  });

  it('holds at most its configured number of keys; an evicted key is read again, an evicted revocation stays revoked', async () => {
    const revoked = new Set<string>(['gone']);
    const reads = { n: 0 };
    const directory = new ApiKeyDirectory(readerOfKeys(revoked, reads), box, 100);
    directory.apply({
      type: 'ApiKeyRevoked',
      v: 1,
      id: 'r',
      ts: 0,
      payload: { userId: '3', seq: 2, commandId: 'r', apiKey: 'gone' },
    } as never);
    for (let i = 0; i < 500; i++) await directory.find(`k${i}`);
    expect(directory.size).toBe(100);
    await directory.find('k0');
    expect(reads.n).toBe(501);
    expect(await directory.find('gone')).toBeUndefined();
  });
});
