import { type StreamedAccount, streamStateHash } from './stream-state-hash';

const flags = { canTrade: true, canWithdraw: true, canDeposit: true };
const alice: StreamedAccount = {
  accountId: '1001',
  userId: '1',
  flags,
  seq: 7,
  balances: [
    { a: 'BTC', f: '1.00000000', l: '0.00000000' },
    { a: 'USDT', f: '59940.000000', l: '0.000000' },
  ],
};
const bob: StreamedAccount = { accountId: '2001', userId: '2', flags, seq: 3, balances: [] };

describe('the state hash of account streams', () => {
  it('is a sha256 that does not depend on the order of accounts or of their balances', () => {
    const hash = streamStateHash([alice, bob]);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(streamStateHash([bob, { ...alice, balances: [...alice.balances].reverse() }])).toBe(hash);
  });

  it.each<[string, StreamedAccount]>([
    ['a flag', { ...alice, flags: { ...flags, canWithdraw: false } }],
    ['the sequence', { ...alice, seq: 8 }],
    ['a free amount', { ...alice, balances: [{ a: 'BTC', f: '0.99999999', l: '0.00000000' }, alice.balances[1]!] }],
    ['a locked amount', { ...alice, balances: [{ a: 'BTC', f: '1.00000000', l: '0.00000001' }, alice.balances[1]!] }],
    ['a missing balance', { ...alice, balances: [alice.balances[0]!] }],
    ['the user', { ...alice, userId: '9' }],
  ])('changes with %s', (_what, changed) => {
    expect(streamStateHash([changed, bob])).not.toBe(streamStateHash([alice, bob]));
  });

  it('changes when an account is missing, and is the hash of nothing for no account', () => {
    expect(streamStateHash([alice])).not.toBe(streamStateHash([alice, bob]));
    expect(streamStateHash([])).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
