import { HeaderNames } from './envelope/message';
import { Topics, toPartitionRecord, toRecord } from './topics';

const command = {
  type: 'TransferFunds',
  v: 1,
  id: 'c1',
  ts: 1,
  payload: { userId: '11', transferId: '2', fromAccountId: '1101', toAccountId: '1103', asset: 'USDT', amount: '1' },
};

describe('toRecord', () => {
  it('keys a message by the payload field its topic names, with its id and type', () => {
    expect(toRecord(Topics.ledgerCommands, command)).toEqual({
      topic: 'ledger.commands',
      key: '11',
      value: JSON.stringify(command),
      headers: { [HeaderNames.messageId]: 'c1', [HeaderNames.messageType]: 'TransferFunds' },
      message: command,
    });
    expect(
      toRecord(Topics.orderCommands, { type: 'SetSymbolStatus', id: 's1', payload: { symbol: 'BTCUSDT' } }).key,
    ).toBe('BTCUSDT');
  });

  it('adds the causation and correlation ids it is given, and only those', () => {
    expect(toRecord(Topics.ledgerCommands, command, { causation: 'e9', correlation: 'r7' }).headers).toEqual({
      [HeaderNames.messageId]: 'c1',
      [HeaderNames.messageType]: 'TransferFunds',
      [HeaderNames.causationId]: 'e9',
      [HeaderNames.correlationId]: 'r7',
    });
    expect(toRecord(Topics.ledgerCommands, command, { correlation: undefined }).headers).not.toHaveProperty(
      HeaderNames.correlationId,
    );
  });

  it("carries the message object itself beside its JSON, for this process's consumers", () => {
    expect(toRecord(Topics.ledgerCommands, command).message).toBe(command);
  });

  it('refuses a message without the key its topic needs (a record keyed "" would lose its partition order)', () => {
    expect(() => toRecord(Topics.ledgerCommands, { ...command, payload: { ...command.payload, userId: '' } })).toThrow(
      'no userId',
    );
  });
});

describe('toPartitionRecord', () => {
  it("writes a message of no user to the partition it names, labelled by the given key, with toRecord's headers", () => {
    const mark = {
      type: 'TriggerContractStops',
      v: 1,
      id: 'p1',
      ts: 1,
      payload: { symbol: 'BTC-SWAP-USDT', lastPrice: '100' },
    };
    expect(toPartitionRecord(Topics.ledgerCommands, mark, 5, mark.payload.symbol, { correlation: 'r7' })).toEqual({
      topic: 'ledger.commands',
      key: 'BTC-SWAP-USDT',
      partition: 5,
      value: JSON.stringify(mark),
      message: mark,
      headers: {
        [HeaderNames.messageId]: 'p1',
        [HeaderNames.messageType]: 'TriggerContractStops',
        [HeaderNames.correlationId]: 'r7',
      },
    });
  });
});
