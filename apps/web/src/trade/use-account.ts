import { useEffect, useRef, useState } from 'preact/hooks';
import { JsonSocket, wsUrl } from '../shared/json-socket';
import type {
  Balance,
  ContractAccount,
  ContractOrder,
  ContractPosition,
  DepositOrder,
  FlowEntry,
  MyTrade,
  Order,
  WithdrawalOrder,
} from '../shared/market-types';
import type { SignedApi } from '../shared/signed-api';

export interface AccountState {
  balances: Balance[];
  openOrders: Order[];
  history: Order[];
  trades: MyTrade[];
  flow: FlowEntry[];
  withdrawals: WithdrawalOrder[];
  deposits: DepositOrder[];
  /** The user's contracts account (CONTRACTS.md): its positions, open orders and USDT. */
  contracts: { positions: ContractPosition[]; openOrders: ContractOrder[]; account?: ContractAccount };
  streaming: boolean;
}

const EMPTY: AccountState = {
  balances: [],
  openOrders: [],
  history: [],
  trades: [],
  flow: [],
  withdrawals: [],
  deposits: [],
  contracts: { positions: [], openOrders: [] },
  streaming: false,
};
const CONTRACT_FRAMES = new Set([
  'contractExecutionReport',
  'outboundContractPositionInfo',
  'outboundContractAccountInfo',
]);
const KEEPALIVE_MS = 30 * 60_000;

/**
 * The signed-in account, kept current by the user data stream. On every (re)connect it follows
 * the README's recipe: listenKey, socket, then openOrders and account over REST; afterwards an
 * executionReport re-reads the order lists, an outboundAccountInfo updates the balances it names
 * and re-reads the balance flow; a contract event re-reads the contracts account's positions,
 * open orders and USDT.
 */
export function useAccount(api: SignedApi | undefined, symbol: string): { state: AccountState; refresh(): void } {
  const [state, setState] = useState<AccountState>(EMPTY);
  const reload = useRef<() => void>(() => undefined);
  // The stream belongs to the API key; the order lists follow the chosen symbol.
  const symbolRef = useRef(symbol);
  symbolRef.current = symbol;

  useEffect(() => {
    if (!api) return;
    let listenKey = '';
    const patch = (part: Partial<AccountState>) => setState((s) => ({ ...s, ...part }));
    const quietly = <T>(promise: Promise<T>, apply: (value: T) => void) => promise.then(apply).catch(() => undefined);
    const orders = () => {
      const symbol = symbolRef.current;
      void quietly(api.call<Order[]>('GET', '/openapi/v1/openOrders', { symbol }), (openOrders) =>
        patch({ openOrders }),
      );
      void quietly(api.call<Order[]>('GET', '/openapi/v1/historyOrders', { symbol, limit: 50 }), (history) =>
        patch({ history }),
      );
      void quietly(api.call<MyTrade[]>('GET', '/openapi/v1/myTrades', { symbol, limit: 50 }), (trades) =>
        patch({ trades: trades.slice().reverse() }),
      );
    };
    const funds = () => {
      void quietly(api.call<{ balances: Balance[] }>('GET', '/openapi/v1/account'), (a) =>
        patch({ balances: a.balances }),
      );
      void quietly(api.call<FlowEntry[]>('GET', '/openapi/v1/balance_flow', { limit: 30 }), (flow) => patch({ flow }));
    };
    const wallet = () => {
      void quietly(api.call<WithdrawalOrder[]>('GET', '/openapi/v1/withdrawalOrders', { limit: 20 }), (withdrawals) =>
        patch({ withdrawals }),
      );
      void quietly(api.call<DepositOrder[]>('GET', '/openapi/v1/depositOrders', { limit: 20 }), (deposits) =>
        patch({ deposits }),
      );
    };
    const contracts = () => {
      const all = Promise.all([
        api.call<ContractPosition[]>('GET', '/openapi/contract/v1/positions'),
        api.call<ContractOrder[]>('GET', '/openapi/contract/v1/openOrders'),
        api.call<{ USDT?: ContractAccount }>('GET', '/openapi/contract/v1/account'),
      ]);
      void quietly(all, ([positions, openOrders, account]) =>
        patch({ contracts: { positions, openOrders, account: account.USDT } }),
      );
    };
    // A burst of reports (a sweep through many levels) re-reads once, not once per frame: the
    // REST reads weigh against the key's request limit.
    const ordersSoon = coalesced(orders, 200);
    const contractsSoon = coalesced(contracts, 200);
    const flowSoon = coalesced(() => {
      void quietly(api.call<FlowEntry[]>('GET', '/openapi/v1/balance_flow', { limit: 30 }), (flow) => patch({ flow }));
      wallet();
    }, 200);
    reload.current = () => {
      orders();
      funds();
      wallet();
      contracts();
    };
    const socket = new JsonSocket(
      async () => {
        listenKey = (await api.call<{ listenKey: string }>('POST', '/openapi/v1/userDataStream')).listenKey;
        return wsUrl(`/openapi/ws/${listenKey}`);
      },
      {
        onOpen: () => reload.current(),
        onState: (streaming) => patch({ streaming }),
        onMessage: (message) => {
          const event = message as { e?: string; B?: { a: string; f: string; l: string }[] };
          if (event.e === 'executionReport') ordersSoon();
          else if (event.e !== undefined && CONTRACT_FRAMES.has(event.e)) contractsSoon();
          else if (event.e === 'outboundAccountInfo') {
            setState((s) => ({ ...s, balances: mergeBalances(s.balances, event.B ?? []) }));
            flowSoon();
          }
        },
      },
    );
    const keepAlive = setInterval(
      () => void api.call('PUT', '/openapi/v1/userDataStream', { listenKey }).catch(() => undefined),
      KEEPALIVE_MS,
    );
    return () => {
      clearInterval(keepAlive);
      socket.close();
      // Signing out ends the key's stream on every replica rather than leaving it to expire.
      if (listenKey) void api.call('DELETE', '/openapi/v1/userDataStream', { listenKey }).catch(() => undefined);
      reload.current = () => undefined;
      setState(EMPTY);
    };
  }, [api]);

  useEffect(() => reload.current(), [symbol]);

  return { state, refresh: () => reload.current() };
}

/** Calls `fn` once, `ms` after the first of any number of calls in between. */
function coalesced(fn: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      fn();
    }, ms);
  };
}

function mergeBalances(current: Balance[], changed: { a: string; f: string; l: string }[]): Balance[] {
  const next = new Map(current.map((b) => [b.asset, b]));
  for (const c of changed) next.set(c.a, { asset: c.a, free: c.f, locked: c.l });
  return [...next.values()].sort((x, y) => x.asset.localeCompare(y.asset));
}
