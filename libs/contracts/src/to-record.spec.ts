import { HeaderNames } from './envelope/message';
import { Topics, toRecord } from './topics';

const command = { type: 'TransferFunds', v: 1, id: 'c1', ts: 1, payload: { userId: '11', transferId: '2', fromAccountId: '1101', toAccountId: '1103', asset: 'USDT', amount: '1' } };

describe('toRecord', () => {
  it('keys a message by the payload field its topic names, with its id and type', () => {
    expect(toRecord(Topics.ledgerCommands, command)).toEqual({
      topic: 'ledger.commands',
      key: '11',
      value: JSON.stringify(command),
      headers: { [HeaderNames.messageId]: 'c1', [HeaderNames.messageType]: 'TransferFunds' },
    });
    expect(toRecord(Topics.orderCommands, { type: 'SetSymbolStatus', id: 's1', payload: { symbol: 'BTCUSDT' } }).key).toBe('BTCUSDT');
  });

  it('adds the causation and correlation ids it is given, and only those', () => {
    expect(toRecord(Topics.ledgerCommands, command, { causation: 'e9', correlation: 'r7' }).headers).toEqual({
      [HeaderNames.messageId]: 'c1',
      [HeaderNames.messageType]: 'TransferFunds',
      [HeaderNames.causationId]: 'e9',
      [HeaderNames.correlationId]: 'r7',
    });
    expect(toRecord(Topics.ledgerCommands, command, { correlation: undefined }).headers).not.toHaveProperty(HeaderNames.correlationId);
  });

  it('refuses a message without the key its topic needs (a record keyed "" would lose its partition order)', () => {
    expect(() => toRecord(Topics.ledgerCommands, { ...command, payload: { ...command.payload, userId: '' } })).toThrow('no userId');
  });
});
