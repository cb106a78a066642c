import { z } from 'zod';
import { param } from '../auth/endpoint-params';
import { privateEndpoint } from '../auth/private-route';
import { accountSchema, balanceFlowSchema, subAccountSchema, transferResultSchema } from './account.schemas';

const MAX_ID = Number.MAX_SAFE_INTEGER;
const none = z.object({});

const flowParams = z.object({
  accountType: param.oneOf(['1', '2', '3'], '1, 2 or 3 (main-account keys)').optional(),
  accountIndex: param.int('index of the account of that type; 0 = main', 0, 1_000_000).optional(),
  tokenId: param.text('asset').optional(),
  fromFlowId: param.int('entries with ids below it, newest first', 0, MAX_ID).optional(),
  endFlowId: param.int('entries with ids above it, newest first', 0, MAX_ID).optional(),
  startTime: param.int('ms', 0, MAX_ID).optional(),
  endTime: param.int('ms', 0, MAX_ID).optional(),
  limit: param.int('default 500, max 500', 1, 500).optional(),
});
const flow = { weight: 5, permission: 'read', ok: z.array(balanceFlowSchema), params: flowParams } as const;

/** Balances, sub-accounts, balance flow and transfers (spec 4.3.8, 4.3.12, 4.3.13, 4.3.15). */
export const AccountEndpoints = {
  account: privateEndpoint({
    method: 'GET',
    path: 'account',
    summary: "Balances of the key's account, every configured asset",
    weight: 5,
    permission: 'read',
    ok: accountSchema,
    params: none,
  }),
  subAccounts: privateEndpoint({
    method: 'POST',
    path: 'subAccount/query',
    summary: 'The main account and its sub-accounts (types 1 and 3)',
    weight: 5,
    permission: 'read',
    ok: z.array(subAccountSchema),
    params: none,
  }),
  balanceFlowPost: privateEndpoint({
    method: 'POST',
    path: 'balance_flow',
    summary: 'Balance flow, newest first',
    ...flow,
  }),
  balanceFlowGet: privateEndpoint({
    method: 'GET',
    path: 'balance_flow',
    summary: 'Balance flow, newest first (GET alias)',
    ...flow,
  }),
  transfer: privateEndpoint({
    method: 'POST',
    path: 'transfer',
    summary: "Move funds between the user's main account and its sub-accounts",
    description:
      'Either side must be the main token account; a sub-account key may only send to its main account and names no account parameter.',
    weight: 1,
    permission: 'trade',
    ok: transferResultSchema,
    params: z.object({
      fromAccountType: param.oneOf(['1', '2', '3'], '1, 2 or 3; default 1 (main-account keys)').optional(),
      fromAccountIndex: param.int('default 0', 0, 1_000_000).optional(),
      toAccountType: param.oneOf(['1', '2', '3'], '1, 2 or 3; required for main-account keys').optional(),
      toAccountIndex: param.int('default 0', 0, 1_000_000).optional(),
      tokenId: param.text('asset'),
      amount: param.text('decimal string, within the asset precision'),
    }),
  }),
};
