import { parseArgs } from 'node:util';

const usage = `usage: npm run admin -- <command>
  users create [--name NAME]
  sub-accounts create <userId> <accountName> [--type 1|3]
  api-keys create <accountId> <read,trade,withdraw>
  api-keys list <accountId>
  api-keys revoke <apiKey>
  deposit <accountId> <asset> <amount> [--txid TXID] [--confirmations N] [--chain CHAIN]
  deposit-address <accountId> <token> [--chain CHAIN]
  withdrawal-addresses add <accountId> <token> <address> [--ext TAG] [--chain CHAIN]
  withdrawal-addresses list <accountId>
  withdrawal-addresses remove <id>
  withdrawals approve <orderId>
  withdrawals reject <orderId> [--reason TEXT]
  chain confirm <orderId> [--confirmations N]
  chain fail <orderId> [--reason TEXT]
  account <accountId>
  contracts <accountId>
  flags <accountId> [--can-trade true|false] [--can-withdraw true|false] [--can-deposit true|false]
  symbol-status <symbol> <TRADING|HALT|BREAK>`;

interface Call {
  method: string;
  path: string;
  body?: unknown;
}

function bool(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw new Error(`expected true or false, got ${value}`);
  return value === 'true';
}

/** Maps a command line to the operator call it stands for. */
export function toCall(argv: string[]): Call {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      type: { type: 'string' },
      'can-trade': { type: 'string' },
      'can-withdraw': { type: 'string' },
      'can-deposit': { type: 'string' },
      txid: { type: 'string' },
      confirmations: { type: 'string' },
      chain: { type: 'string' },
      ext: { type: 'string' },
      reason: { type: 'string' },
    },
  });
  const [command, action, ...rest] = positionals;
  const arg = (i: number, what: string): string => {
    const all = [action, ...rest];
    const value = all[i];
    if (!value) throw new Error(`missing ${what}\n${usage}`);
    return value;
  };
  const count = (value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value)) throw new Error(`expected a number of confirmations, got ${value}`);
    return Number(value);
  };
  const withdrawal = (verb: string): string => `/admin/v1/withdrawals/${encodeURIComponent(arg(1, 'orderId'))}/${verb}`;
  const onChain = (verb: string): string =>
    `/admin/v1/chain/withdrawals/${encodeURIComponent(arg(1, 'orderId'))}/${verb}`;
  const grouped = ['users', 'sub-accounts', 'api-keys', 'withdrawal-addresses', 'withdrawals', 'chain'];
  switch (`${command} ${grouped.includes(command ?? '') ? action : ''}`.trim()) {
    case 'users create':
      return { method: 'POST', path: '/admin/v1/users', body: values.name ? { name: values.name } : {} };
    case 'sub-accounts create':
      return {
        method: 'POST',
        path: `/admin/v1/users/${arg(1, 'userId')}/sub-accounts`,
        body: { accountName: arg(2, 'accountName'), ...(values.type ? { accountType: Number(values.type) } : {}) },
      };
    case 'api-keys create':
      return {
        method: 'POST',
        path: '/admin/v1/api-keys',
        body: { accountId: arg(1, 'accountId'), permissions: arg(2, 'permissions').split(',') },
      };
    case 'api-keys list':
      return { method: 'GET', path: `/admin/v1/api-keys?accountId=${encodeURIComponent(arg(1, 'accountId'))}` };
    case 'api-keys revoke':
      return { method: 'DELETE', path: `/admin/v1/api-keys/${encodeURIComponent(arg(1, 'apiKey'))}` };
    case 'deposit':
      return {
        method: 'POST',
        path: '/admin/v1/deposits',
        body: {
          accountId: arg(0, 'accountId'),
          asset: arg(1, 'asset'),
          amount: arg(2, 'amount'),
          txid: values.txid,
          confirmations: count(values.confirmations),
          chainType: values.chain,
        },
      };
    case 'deposit-address':
      return {
        method: 'POST',
        path: '/admin/v1/deposit-addresses',
        body: { accountId: arg(0, 'accountId'), tokenId: arg(1, 'token'), chainType: values.chain },
      };
    case 'withdrawal-addresses add':
      return {
        method: 'POST',
        path: '/admin/v1/withdrawal-addresses',
        body: {
          accountId: arg(1, 'accountId'),
          tokenId: arg(2, 'token'),
          address: arg(3, 'address'),
          addressExt: values.ext,
          chainType: values.chain,
        },
      };
    case 'withdrawal-addresses list':
      return {
        method: 'GET',
        path: `/admin/v1/withdrawal-addresses?accountId=${encodeURIComponent(arg(1, 'accountId'))}`,
      };
    case 'withdrawal-addresses remove':
      return { method: 'DELETE', path: `/admin/v1/withdrawal-addresses/${encodeURIComponent(arg(1, 'id'))}` };
    case 'withdrawals approve':
      return { method: 'POST', path: withdrawal('approve'), body: {} };
    case 'withdrawals reject':
      return { method: 'POST', path: withdrawal('reject'), body: { reason: values.reason } };
    case 'chain confirm':
      return { method: 'POST', path: onChain('confirm'), body: { confirmations: count(values.confirmations) } };
    case 'chain fail':
      return { method: 'POST', path: onChain('fail'), body: { reason: values.reason } };
    case 'account':
      return { method: 'GET', path: `/admin/v1/accounts/${encodeURIComponent(arg(0, 'accountId'))}` };
    case 'contracts':
      return { method: 'GET', path: `/admin/v1/accounts/${encodeURIComponent(arg(0, 'accountId'))}/contracts` };
    case 'flags':
      return {
        method: 'POST',
        path: `/admin/v1/accounts/${encodeURIComponent(arg(0, 'accountId'))}/flags`,
        body: {
          canTrade: bool(values['can-trade']),
          canWithdraw: bool(values['can-withdraw']),
          canDeposit: bool(values['can-deposit']),
        },
      };
    case 'symbol-status':
      return {
        method: 'POST',
        path: `/admin/v1/symbols/${encodeURIComponent(arg(0, 'symbol'))}/status`,
        body: { status: arg(1, 'status') },
      };
    default:
      throw new Error(usage);
  }
}
