import { z } from 'zod';
import { ErrorCode } from '@exchange/platform';
import { param } from '../auth/endpoint-params';
import { privateEndpoint } from '../auth/private-route';

const MAX_ID = Number.MAX_SAFE_INTEGER;
const anyObject = z.record(z.string(), z.unknown());

const newOrderParams = z.object({
  symbol: param.text('e.g. BTCUSDT'),
  side: param.oneOf(['BUY', 'SELL'], 'BUY or SELL', ErrorCode.INVALID_SIDE),
  type: param.oneOf(['LIMIT', 'MARKET', 'LIMIT_MAKER'], 'LIMIT, MARKET or LIMIT_MAKER', ErrorCode.INVALID_ORDER_TYPE),
  timeInForce: param
    .oneOf(['GTC', 'IOC', 'FOK'], 'GTC (default), IOC, FOK', ErrorCode.INVALID_TIME_IN_FORCE)
    .optional(),
  // Not required: a MARKET BUY may send its quote amount as quoteOrderQty instead.
  quantity: param.text('base quantity; for a MARKET BUY, the quote amount').optional(),
  quoteOrderQty: param.text('alias for the quote amount of a MARKET BUY').optional(),
  price: param.text('required for LIMIT and LIMIT_MAKER').optional(),
  newClientOrderId: param.text('unique per account while open and 24 h after (alias clientOrderId)').optional(),
  clientOrderId: param.text('alias of newClientOrderId').optional(),
  newOrderRespType: param.oneOf(['ACK', 'RESULT', 'FULL'], 'ACK, RESULT (default) or FULL (adds fills)').optional(),
});

export type NewOrderParams = z.output<typeof newOrderParams>;

const byIdParams = z.object({
  orderId: param.int('one of orderId / origClientOrderId', 1, MAX_ID).optional(),
  origClientOrderId: param.text('alias clientOrderId').optional(),
  clientOrderId: param.text('alias of origClientOrderId').optional(),
});

const listParams = z.object({
  symbol: param.text('all symbols when omitted').optional(),
  orderId: param.int('orders with a lower id', 1, MAX_ID).optional(),
  startTime: param.int('ms (historyOrders)', 0, MAX_ID).optional(),
  endTime: param.int('ms (historyOrders)', 0, MAX_ID).optional(),
  limit: param.int('default 500, max 1000', 1, 1000).optional(),
});

/** New, test, query and cancel orders; open and history orders; account trades (spec 4.3.1–4.3.7). */
export const OrderEndpoints = {
  place: privateEndpoint({
    method: 'POST',
    path: 'order',
    summary: 'New order; answers with what the engine did (RESULT by default)',
    weight: 1,
    permission: 'trade',
    countsAsOrder: true,
    ok: anyObject,
    params: newOrderParams,
  }),
  test: privateEndpoint({
    method: 'POST',
    path: 'order/test',
    summary: 'Validate a new order (signature, recvWindow, parameters, filters); nothing is created',
    weight: 1,
    permission: 'trade',
    ok: z.object({}).strict(),
    params: newOrderParams,
  }),
  query: privateEndpoint({
    method: 'GET',
    path: 'order',
    summary: 'Query an order by orderId or client order id',
    weight: 1,
    permission: 'read',
    ok: anyObject,
    params: byIdParams,
  }),
  cancel: privateEndpoint({
    method: 'DELETE',
    path: 'order',
    summary: 'Cancel an open order; answers once the engine has canceled it',
    weight: 1,
    permission: 'trade',
    ok: anyObject,
    params: byIdParams,
  }),
  openOrders: privateEndpoint({
    method: 'GET',
    path: 'openOrders',
    summary: 'Open orders, newest first',
    weight: 1,
    permission: 'read',
    ok: z.array(anyObject),
    params: listParams,
  }),
  historyOrders: privateEndpoint({
    method: 'GET',
    path: 'historyOrders',
    summary: 'Final orders (FILLED, CANCELED, REJECTED), newest first',
    weight: 5,
    permission: 'read',
    ok: z.array(anyObject),
    params: listParams,
  }),
  myTrades: privateEndpoint({
    method: 'GET',
    path: 'myTrades',
    summary:
      'Account trades: fromId → lower ids descending; toId → higher ids ascending; both → between, descending; neither → most recent',
    weight: 5,
    permission: 'read',
    ok: z.array(anyObject),
    params: z.object({
      symbol: param.text('all symbols when omitted').optional(),
      fromId: param.int('trade id', 0, MAX_ID).optional(),
      toId: param.int('trade id', 0, MAX_ID).optional(),
      startTime: param.int('ms', 0, MAX_ID).optional(),
      endTime: param.int('ms', 0, MAX_ID).optional(),
      limit: param.int('default 500, max 1000', 1, 1000).optional(),
    }),
  }),
};
