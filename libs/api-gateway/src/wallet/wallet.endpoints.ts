import { z } from 'zod';
import { param } from '../auth/endpoint-params';
import { privateEndpoint } from '../auth/private-route';
import { depositOrderViewSchema, withdrawalOrderSchema } from './wallet-views';

const MAX_ID = Number.MAX_SAFE_INTEGER;
const timeRange = { startTime: param.int('ms', 0, MAX_ID).optional(), endTime: param.int('ms', 0, MAX_ID).optional() };
const limit = param.int('default 500, max 1000', 1, 1000).optional();

const withdrawParams = z.object({
  tokenId: param.text('e.g. BTC'),
  clientOrderId: param.text('unique per account, to prevent a double withdrawal'),
  address: param.text("an address of the account's withdrawal address book"),
  addressExt: param.text('tag / memo').optional(),
  withdrawalQuantity: param.text("decimal, at least the asset's minimum"),
  chainType: param.text('USDT: OMNI (default), ERC20, TRC20; ignored for other assets').optional(),
});
export type WithdrawParams = z.output<typeof withdrawParams>;

/** Withdraw, withdrawal queries and deposit orders (spec 4.3.9–4.3.11, 4.3.14). */
export const WalletEndpoints = {
  withdraw: privateEndpoint({
    method: 'POST',
    path: 'withdraw',
    summary: "Withdraw to an address of the account's address book; funds are held until the withdrawal is final",
    description:
      'The fee is charged on top of withdrawalQuantity. The same clientOrderId with the same parameters answers the same withdrawal; with others it is -1141. Needs the withdraw permission.',
    weight: 5,
    permission: 'withdraw',
    ok: withdrawalOrderSchema,
    params: withdrawParams,
  }),
  withdrawalOrders: privateEndpoint({
    method: 'GET',
    path: 'withdrawalOrders',
    summary: 'Withdrawal orders, newest first; fromId gives ids below it',
    // The spec shows no weight for withdrawalOrders: 1 (API-DECISIONS.md, Limits).
    weight: 1,
    permission: 'read',
    ok: z.array(withdrawalOrderSchema),
    params: z.object({
      token: param.text('all tokens when omitted').optional(),
      tokenId: param.text('alias of token').optional(),
      ...timeRange,
      fromId: param.int('withdrawal order id', 0, MAX_ID).optional(),
      limit,
    }),
  }),
  detail: privateEndpoint({
    method: 'GET',
    path: 'withdraw/detail',
    summary: 'One withdrawal order, by orderId or clientOrderId',
    weight: 1,
    permission: 'read',
    ok: withdrawalOrderSchema,
    params: z.object({
      orderId: param.int('one of orderId / clientOrderId', 1, MAX_ID).optional(),
      clientOrderId: param.text("the withdrawal's client id").optional(),
    }),
  }),
  depositOrders: privateEndpoint({
    method: 'GET',
    path: 'depositOrders',
    summary: 'Credited deposits: fromId gives ids above it, oldest first; otherwise the most recent, newest first',
    weight: 5,
    permission: 'read',
    ok: z.array(depositOrderViewSchema),
    params: z.object({ ...timeRange, fromId: param.int('deposit order id', 0, MAX_ID).optional(), limit }),
  }),
};
