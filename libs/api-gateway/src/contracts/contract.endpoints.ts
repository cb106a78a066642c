import { z } from 'zod';
import { ErrorCode } from '@exchange/platform';
import { param } from '../auth/endpoint-params';
import { privateEndpoint } from '../auth/private-route';
import { CONTRACT_SIDES, CONTRACT_TIME_IN_FORCE, PRICE_TYPES } from './contract-params';

const MAX_ID = Number.MAX_SAFE_INTEGER;
const anyObject = z.record(z.string(), z.unknown());
const anySymbol = param.text('every contract when omitted').optional();
const orderType = param.oneOf(['LIMIT', 'STOP'], 'LIMIT or STOP', ErrorCode.INVALID_ORDER_TYPE);

// Declared in the order ContractService checks them, so a request with several faults is refused
// for the same one as before the door parsed them (the symbol's -1121 still comes from the service).
const newOrderParams = z.object({
  symbol: param.text('a contract symbol, e.g. BTC-SWAP-USDT (a spot symbol is -1121)'),
  side: param.oneOf(
    CONTRACT_SIDES,
    'BUY_OPEN / SELL_OPEN open or add to LONG / SHORT; SELL_CLOSE / BUY_CLOSE reduce them',
    ErrorCode.INVALID_SIDE,
  ),
  orderType: param
    .oneOf(
      ['LIMIT', 'STOP'],
      'LIMIT (default) or STOP (with triggerPrice: held off the book, its margin locked, until the last price crosses the trigger: BUY_* at or above, SELL_* at or below)',
      ErrorCode.INVALID_ORDER_TYPE,
    )
    .optional(),
  priceType: param
    .oneOf(
      PRICE_TYPES,
      'INPUT (default), OPPONENT, QUEUE, OVER (with overPrice), MARKET (an IOC at the last price ± 5%)',
    )
    .optional(),
  timeInForce: param
    .oneOf(CONTRACT_TIME_IN_FORCE, 'GTC (default), IOC, FOK, LIMIT_MAKER', ErrorCode.INVALID_TIME_IN_FORCE)
    .optional(),
  clientOrderId: param.text(
    'unique per account while its order is open and for the retry window (RETRY_WINDOW_MS) after it ends; a repeat is -1141',
  ),
  quantity: param.text("contracts; a CLOSE order at most the position's available (-2022)"),
  leverage: param.text("required on OPEN orders: 1 to the risk-limit tier's maximum (-1130)").optional(),
  price: param.text('required for priceType INPUT').optional(),
  overPrice: param.text('OVER: added to (BUY) or taken from (SELL) the best opposite price').optional(),
  triggerPrice: param.text('STOP orders: the last price that releases the order to the book').optional(),
});

const byIdParams = {
  orderId: param.int('one of orderId / clientOrderId', 1, MAX_ID).optional(),
  clientOrderId: param.text("the order's client id").optional(),
  origClientOrderId: param.text("the same as clientOrderId (the spot API's name)").optional(),
};

const between = { startTime: param.int('ms', 0, MAX_ID).optional(), endTime: param.int('ms', 0, MAX_ID).optional() };
const limit = param.int('default 20, max 1000', 1, 1000).optional();
const orderListParams = z.object({
  symbol: anySymbol,
  orderId: param.int('orders with a lower id', 1, MAX_ID).optional(),
  ...between,
  orderType: orderType.optional(),
  limit,
});
const tradeListParams = z.object({
  symbol: anySymbol,
  fromId: param.int('trades with a lower id', 1, MAX_ID).optional(),
  ...between,
  limit,
});

export type NewContractOrderParams = z.output<typeof newOrderParams>;
export type ContractOrderRefParams = { orderId?: number; clientOrderId?: string; origClientOrderId?: string };

/** Perpetual contract trading (CONTRACTS.md, Orders): the BHEx family's contract API. */
export const ContractEndpoints = {
  place: privateEndpoint({
    method: 'POST',
    path: 'order',
    summary: 'New contract order; answers with what the engine did (NEW when it rests, FILLED, EXPIRED)',
    weight: 1,
    permission: 'trade',
    countsAsOrder: true,
    ok: anyObject,
    params: newOrderParams,
  }),
  cancel: privateEndpoint({
    method: 'DELETE',
    path: 'order/cancel',
    summary: 'Cancel an open contract order; answers once the engine has canceled it',
    weight: 1,
    permission: 'trade',
    ok: anyObject,
    params: z.object({ ...byIdParams, orderType: orderType.optional() }),
  }),
  batchCancel: privateEndpoint({
    method: 'DELETE',
    path: 'order/batchCancel',
    summary: 'Cancel every open contract order (of one symbol when given)',
    weight: 5,
    permission: 'trade',
    ok: anyObject,
    params: z.object({ symbol: anySymbol }),
  }),
  getOrder: privateEndpoint({
    method: 'GET',
    path: 'getOrder',
    summary: 'A contract order by orderId or clientOrderId',
    weight: 1,
    permission: 'read',
    ok: anyObject,
    params: z.object({
      ...byIdParams,
      orderType: param.text('LIMIT or STOP (not checked: the id finds the order)').optional(),
    }),
  }),
  openOrders: privateEndpoint({
    method: 'GET',
    path: 'openOrders',
    summary: 'Open contract orders, newest first',
    weight: 1,
    permission: 'read',
    ok: z.array(anyObject),
    params: orderListParams,
  }),
  historyOrders: privateEndpoint({
    method: 'GET',
    path: 'historyOrders',
    summary: 'Final contract orders (FILLED, CANCELED, EXPIRED, REJECTED), newest first',
    weight: 5,
    permission: 'read',
    ok: z.array(anyObject),
    params: orderListParams,
  }),
  myTrades: privateEndpoint({
    method: 'GET',
    path: 'myTrades',
    summary: "The account's contract trades with realised PnL (pnl), newest first",
    weight: 5,
    permission: 'read',
    ok: z.array(anyObject),
    params: tradeListParams,
  }),
  positions: privateEndpoint({
    method: 'GET',
    path: 'positions',
    summary: 'Open positions (one LONG and one SHORT per symbol at most)',
    weight: 5,
    permission: 'read',
    ok: z.array(anyObject),
    params: z.object({ symbol: anySymbol }),
  }),
  account: privateEndpoint({
    method: 'GET',
    path: 'account',
    summary: "The contracts account's USDT: total, availableMargin, positionMargin, orderMargin",
    weight: 5,
    permission: 'read',
    ok: anyObject,
    params: z.object({}),
  }),
  modifyMargin: privateEndpoint({
    method: 'POST',
    path: 'modifyMargin',
    summary:
      'Add (positive amount) or remove (negative) position margin; a removal may not leave less than the initial margin at the mark price (-1131)',
    weight: 1,
    permission: 'trade',
    ok: anyObject,
    params: z.object({
      symbol: param.text('a contract symbol'),
      side: param.oneOf(['LONG', 'SHORT'], 'the position', ErrorCode.INVALID_SIDE),
      // Checked by the service: a plain signed decimal, else -1100 ILLEGAL_CHARS.
      amount: param.text('USDT, signed'),
    }),
  }),
};
