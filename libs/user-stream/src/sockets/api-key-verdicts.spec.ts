import { ApiKeyVerdicts } from './api-key-verdicts';

describe('ApiKeyVerdicts', () => {
  it('holds at most its bound of keys, live and revoked together, however many pass through', async () => {
    const verdicts = new ApiKeyVerdicts(100);
    for (let i = 0; i < 1000; i++) {
      await verdicts.isLive(`live-${i}`, async () => true);
      verdicts.revoke(`revoked-${i}`);
    }
    expect(verdicts.size).toBe(100);
    expect(verdicts.isRevoked('revoked-999')).toBe(true);
  });

  it('reads the tables again for a key it let go, and a revocation wins over a read that raced it', async () => {
    const verdicts = new ApiKeyVerdicts(2);
    let reads = 0;
    const tables = async (): Promise<boolean> => {
      reads += 1;
      return true;
    };
    expect(await verdicts.isLive('a', tables)).toBe(true);
    expect(await verdicts.isLive('a', tables)).toBe(true);
    expect(reads).toBe(1);
    await verdicts.isLive('b', tables);
    await verdicts.isLive('c', tables);
    expect(await verdicts.isLive('a', tables)).toBe(true);
    expect(reads).toBe(4);

    const racing = verdicts.isLive('d', async () => {
      verdicts.revoke('d');
      return true;
    });
    expect(await racing).toBe(false);
    expect(verdicts.isRevoked('d')).toBe(true);
  });
});
