import { contractCommandSchema } from './contract-commands.v1';

const envelope = { v: 1, id: 'c1', ts: 1_700_000_000_000 };
const account = { userId: '100', accountId: '1001' };

describe('contract commands', () => {
  it('parses every command as plain data with decimal strings', () => {
    const commands = [
      { type: 'CreditContractAccount', payload: { ...account, creditId: '7', amount: '1000.5' } },
      {
        type: 'PlaceContractOrder',
        payload: {
          ...account,
          orderId: '11',
          symbol: 'BTC-SWAP-USDT',
          side: 'BUY_OPEN',
          price: '50000',
          quantity: '10',
          leverage: '20',
          marketsVersion: 1,
        },
      },
      {
        type: 'PlaceContractOrder',
        payload: {
          ...account,
          orderId: '12',
          symbol: 'BTC-SWAP-USDT',
          side: 'SELL_CLOSE',
          price: '51000',
          quantity: '10',
          marketsVersion: 1,
        },
      },
      {
        type: 'FillContractOrder',
        payload: {
          ...account,
          orderId: '11',
          symbol: 'BTC-SWAP-USDT',
          tradeId: '5',
          price: '50000',
          quantity: '4',
          isMaker: true,
        },
      },
      { type: 'EndContractOrder', payload: { ...account, orderId: '11', symbol: 'BTC-SWAP-USDT', status: 'EXPIRED' } },
      {
        type: 'ModifyPositionMargin',
        payload: { ...account, symbol: 'BTC-SWAP-USDT', side: 'LONG', amount: '-12.5', markPrice: '49000' },
      },
      {
        type: 'PlaceContractOrder',
        payload: {
          ...account,
          orderId: '13',
          symbol: 'BTC-SWAP-USDT',
          side: 'BUY_OPEN',
          price: '51000',
          quantity: '1',
          leverage: '5',
          marketsVersion: 1,
          orderType: 'STOP',
          triggerPrice: '50500',
        },
      },
      { type: 'SeedInsuranceFund', payload: { seedId: '1', amount: '100000' } },
      {
        type: 'SettleFunding',
        payload: { symbol: 'BTC-SWAP-USDT', fundingTime: 1_700_006_400_000, rate: '-0.0045', markPrice: '49750' },
      },
      {
        type: 'MarkContractPrice',
        payload: { symbol: 'BTC-SWAP-USDT', markPrice: '49750', indexPrice: '50000', marketsVersion: 1 },
      },
      { type: 'TriggerContractStops', payload: { symbol: 'BTC-SWAP-USDT', lastPrice: '50500' } },
    ];
    for (const c of commands) expect(contractCommandSchema.parse({ ...envelope, ...c })).toEqual({ ...envelope, ...c });
  });

  it.each([
    [
      'a spot side',
      {
        type: 'PlaceContractOrder',
        payload: {
          ...account,
          orderId: '11',
          symbol: 'BTC-SWAP-USDT',
          side: 'BUY',
          price: '1',
          quantity: '1',
          marketsVersion: 1,
        },
      },
    ],
    [
      'a number for a price',
      {
        type: 'PlaceContractOrder',
        payload: {
          ...account,
          orderId: '11',
          symbol: 'BTC-SWAP-USDT',
          side: 'BUY_OPEN',
          price: 1,
          quantity: '1',
          marketsVersion: 1,
        },
      },
    ],
    ['a negative credit', { type: 'CreditContractAccount', payload: { ...account, creditId: '7', amount: '-1' } }],
    [
      'a lower-case symbol',
      { type: 'EndContractOrder', payload: { ...account, orderId: '11', symbol: 'btc-swap-usdt', status: 'CANCELED' } },
    ],
    [
      'a STOP type unknown to contracts',
      {
        type: 'PlaceContractOrder',
        payload: {
          ...account,
          orderId: '11',
          symbol: 'BTC-SWAP-USDT',
          side: 'BUY_OPEN',
          price: '1',
          quantity: '1',
          marketsVersion: 1,
          orderType: 'STOP_LIMIT',
        },
      },
    ],
    [
      'a funding rate as a number',
      { type: 'SettleFunding', payload: { symbol: 'BTC-SWAP-USDT', fundingTime: 1, rate: 0.0001, markPrice: '1' } },
    ],
    [
      'a position side of BOTH',
      {
        type: 'ModifyPositionMargin',
        payload: { ...account, symbol: 'BTC-SWAP-USDT', side: 'BOTH', amount: '1', markPrice: '1' },
      },
    ],
  ])('refuses %s', (_, command) => {
    expect(contractCommandSchema.safeParse({ ...envelope, ...command }).success).toBe(false);
  });
});
