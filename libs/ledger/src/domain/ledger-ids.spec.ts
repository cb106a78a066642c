import { FLOWS_PER_COMMAND, flowIdOf } from './ledger-ids';

describe('flow ids', () => {
  it('gives every flow of a command, in every partition, its own id, increasing with the offset and with k', () => {
    const ids = new Set<string>();
    for (const offset of [0, 1, 2])
      for (const partition of [0, 7, 63])
        for (let k = 0; k < FLOWS_PER_COMMAND; k++) ids.add(flowIdOf(offset, partition, k));
    expect(ids.size).toBe(3 * 3 * FLOWS_PER_COMMAND);
    const inPartition = (offset: number, k: number) => BigInt(flowIdOf(offset, 5, k));
    expect(inPartition(0, FLOWS_PER_COMMAND - 1) < inPartition(1, 0)).toBe(true);
    expect(inPartition(1, 0) < inPartition(1, 1)).toBe(true);
  });

  it('stays above every id of the first layout (offset × 1024 + partition × 16 + k + 1) and below 2^53', () => {
    const firstLayoutMax = (2n ** 40n - 1n) * 1024n + 63n * 16n + 16n; // its last offset below 2^40
    expect(BigInt(flowIdOf(0, 0, 0)) > firstLayoutMax).toBe(true);
    expect(BigInt(flowIdOf(2.4e11, 63, FLOWS_PER_COMMAND - 1)) <= BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  it('refuses what the layout cannot hold rather than reuse an id', () => {
    expect(() => flowIdOf(0, 0, FLOWS_PER_COMMAND)).toThrow('flow id space exceeded');
    expect(() => flowIdOf(0, 64, 0)).toThrow('flow id space exceeded');
    expect(() => flowIdOf(3e11, 0, 0)).toThrow('flow id space exceeded');
  });
});
