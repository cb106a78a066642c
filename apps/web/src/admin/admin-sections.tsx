import { useEffect, useState } from 'preact/hooks';
import type { BrokerInfo } from '../shared/market-types';
import { dateTime } from '../shared/format';
import { errorText, type OperatorApi, publicGet } from '../shared/signed-api';

interface UserRow {
  userId: string;
  name: string;
  created: number;
  accounts: {
    accountId: string;
    accountType: number;
    accountIndex: number;
    accountName: string;
    canTrade: boolean;
    canWithdraw: boolean;
  }[];
}
interface Withdrawal {
  orderId: string;
  accountId: string;
  tokenId: string;
  quantity: string;
  fee: string;
  address: string;
  statusCode: string;
  time: string;
}
interface Deposit {
  orderId: string;
  token: string;
  quantity: string;
  address: string;
  txid: string;
  status: string;
  time: string;
}
interface AuditRecord {
  offset: number;
  ts: number;
  method: string;
  path: string;
  status: number;
  ip: string;
}
interface ApiKeyRow {
  apiKey: string;
  permissions: string[];
}

/** Runs an operator call and keeps its error for the section to show. */
function useAction(onDone: () => void): [string, (work: () => Promise<unknown>) => Promise<void>] {
  const [error, setError] = useState('');
  return [
    error,
    async (work) => {
      setError('');
      try {
        await work();
        onDone();
      } catch (e) {
        setError(errorText(e));
      }
    },
  ];
}

function useList<T>(load: () => Promise<T[]>, version: number): T[] {
  const [rows, setRows] = useState<T[]>([]);
  useEffect(() => void load().then(setRows, () => setRows([])), [version]);
  return rows;
}

export function Users({ api, version, bump }: { api: OperatorApi; version: number; bump(): void }) {
  const users = useList(() => api.call<UserRow[]>('GET', '/admin/v1/users?limit=50'), version);
  const [selected, setSelected] = useState<string>();
  const [keys, setKeys] = useState<ApiKeyRow[]>([]);
  const [error, act] = useAction(bump);
  const [name, setName] = useState('');
  const showKeys = (accountId: string) => {
    setSelected(accountId);
    void api.call<ApiKeyRow[]>('GET', `/admin/v1/api-keys?accountId=${accountId}`).then(setKeys, () => setKeys([]));
  };
  return (
    <section class="panel" aria-label="Users">
      <h2>Users, sub-accounts and API keys</h2>
      <form
        class="inline"
        aria-label="New user"
        onSubmit={(e) => (e.preventDefault(), void act(() => api.call('POST', '/admin/v1/users', { name })))}
      >
        <label>
          User name
          <input type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit">Create user</button>
      </form>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <table>
        <thead>
          <tr>
            <th scope="col">User</th>
            <th scope="col">Name</th>
            <th scope="col">Accounts (type/index: id)</th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.userId}>
              <td>{u.userId}</td>
              <td>{u.name}</td>
              <td>
                {u.accounts.map((a) => (
                  <button
                    type="button"
                    class="link"
                    key={a.accountId}
                    aria-pressed={selected === a.accountId}
                    onClick={() => showKeys(a.accountId)}
                  >
                    {a.accountType}/{a.accountIndex}: {a.accountId}
                    {a.accountName ? ` ${a.accountName}` : ''}
                  </button>
                ))}
                <button
                  type="button"
                  class="secondary"
                  onClick={() =>
                    void act(() =>
                      api.call('POST', `/admin/v1/users/${u.userId}/sub-accounts`, {
                        accountName: `sub-${u.accounts.length}`,
                      }),
                    )
                  }
                >
                  Add sub-account
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {selected && (
        <AccountTools api={api} accountId={selected} keys={keys} onKeysChanged={() => showKeys(selected)} act={act} />
      )}
    </section>
  );
}

/**
 * One account's API keys (list, create, revoke: a new key's secret is shown once, here) and its
 * deposit address per token (assigned on first request, as the operator API does).
 */
function AccountTools({
  api,
  accountId,
  keys,
  onKeysChanged,
  act,
}: {
  api: OperatorApi;
  accountId: string;
  keys: ApiKeyRow[];
  onKeysChanged(): void;
  act: (work: () => Promise<unknown>) => Promise<void>;
}) {
  const [created, setCreated] = useState<{ apiKey: string; secretKey: string }>();
  const [token, setToken] = useState('USDT');
  const [address, setAddress] = useState<{ address: string; tokenId: string; chainType: string }>();
  return (
    <div role="group" aria-label={`Account ${accountId}`}>
      <h3>API keys of account {accountId}</h3>
      <ul>
        {keys.map((k) => (
          <li key={k.apiKey}>
            <code>{k.apiKey}</code> {k.permissions.join(', ')}{' '}
            <button
              type="button"
              class="secondary"
              onClick={() => void act(() => api.call('DELETE', `/admin/v1/api-keys/${k.apiKey}`).then(onKeysChanged))}
            >
              Revoke
            </button>
          </li>
        ))}
        {keys.length === 0 && <li>No live keys.</li>}
      </ul>
      <button
        type="button"
        class="secondary"
        onClick={() =>
          void act(() =>
            api
              .call<{ apiKey: string; secretKey: string }>('POST', '/admin/v1/api-keys', {
                accountId,
                permissions: ['read', 'trade', 'withdraw'],
              })
              .then((k) => (setCreated(k), onKeysChanged())),
          )
        }
      >
        Create API key
      </button>
      {created && (
        <p role="status">
          New key <code>{created.apiKey}</code>, secret (shown once) <code>{created.secretKey}</code>
        </p>
      )}
      <form
        class="inline"
        aria-label="Deposit address"
        onSubmit={(e) => (
          e.preventDefault(),
          void act(() =>
            api
              .call<typeof address>('POST', '/admin/v1/deposit-addresses', { accountId, tokenId: token })
              .then(setAddress),
          )
        )}
      >
        <label>
          Token
          <input type="text" value={token} onInput={(e) => setToken(e.currentTarget.value.toUpperCase())} />
        </label>
        <button type="submit" class="secondary">
          Show deposit address
        </button>
      </form>
      {address && (
        <p role="status">
          {address.tokenId} ({address.chainType}): <code>{address.address}</code>
        </p>
      )}
    </div>
  );
}

export function Withdrawals({ api, version, bump }: { api: OperatorApi; version: number; bump(): void }) {
  const rows = useList(() => api.call<Withdrawal[]>('GET', '/admin/v1/withdrawals'), version);
  const [error, act] = useAction(bump);
  return (
    <section class="panel" aria-label="Withdrawals awaiting approval">
      <h2>Withdrawals awaiting approval</h2>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <table>
        <thead>
          <tr>
            {['Id', 'Time', 'Account', 'Asset', 'Amount', 'Fee', 'Address', 'Status', ''].map((h) => (
              <th scope="col" key={h}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={9} class="empty">
                Nothing waits for approval.
              </td>
            </tr>
          )}
          {rows.map((w) => (
            <tr key={w.orderId}>
              <td>{w.orderId}</td>
              <td>{dateTime(w.time)}</td>
              <td>{w.accountId}</td>
              <td>{w.tokenId}</td>
              <td>{w.quantity}</td>
              <td>{w.fee}</td>
              <td>
                <code>{w.address}</code>
              </td>
              <td>{w.statusCode}</td>
              <td>
                <button
                  type="button"
                  onClick={() => void act(() => api.call('POST', `/admin/v1/withdrawals/${w.orderId}/approve`, {}))}
                >
                  Approve
                </button>
                <button
                  type="button"
                  class="secondary"
                  onClick={() =>
                    void act(() =>
                      api.call('POST', `/admin/v1/withdrawals/${w.orderId}/reject`, {
                        reason: 'rejected in the console',
                      }),
                    )
                  }
                >
                  Reject
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function Deposits({ api, version }: { api: OperatorApi; version: number }) {
  const rows = useList(() => api.call<Deposit[]>('GET', '/admin/v1/deposits?limit=30'), version);
  return (
    <section class="panel" aria-label="Deposits">
      <h2>Deposits</h2>
      <table>
        <thead>
          <tr>
            {['Id', 'Time', 'Asset', 'Amount', 'Address', 'Txid', 'Status'].map((h) => (
              <th scope="col" key={h}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((d) => (
            <tr key={d.orderId}>
              <td>{d.orderId}</td>
              <td>{dateTime(d.time)}</td>
              <td>{d.token}</td>
              <td>{d.quantity}</td>
              <td>
                <code>{d.address}</code>
              </td>
              <td>
                <code>{d.txid}</code>
              </td>
              <td>{d.status}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function Symbols({ api, bump }: { api: OperatorApi; bump(): void }) {
  const [symbols, setSymbols] = useState<{ symbol: string; status: string }[]>([]);
  const [error, act] = useAction(bump);
  const load = () =>
    void publicGet<BrokerInfo>('/openapi/v1/brokerInfo').then(
      (b) => setSymbols(b.symbols),
      () => undefined,
    );
  useEffect(load, []);
  return (
    <section class="panel" aria-label="Symbols">
      <h2>Symbol status</h2>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <ul class="symbols">
        {symbols.map((s) => (
          <li key={s.symbol}>
            <label>
              {s.symbol}
              <select
                value={s.status}
                onChange={(e) =>
                  void act(() =>
                    api
                      .call('POST', `/admin/v1/symbols/${s.symbol}/status`, { status: e.currentTarget.value })
                      .then(load),
                  )
                }
              >
                {['TRADING', 'HALT', 'BREAK'].map((status) => (
                  <option key={status}>{status}</option>
                ))}
              </select>
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function AuditTrail({ api, version }: { api: OperatorApi; version: number }) {
  const rows = useList(() => api.call<AuditRecord[]>('GET', '/admin/v1/audit?limit=50'), version);
  return (
    <section class="panel" aria-label="Audit trail">
      <h2>Audit trail</h2>
      <table>
        <thead>
          <tr>
            {['Time', 'Call', 'Status', 'From'].map((h) => (
              <th scope="col" key={h}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.offset}>
              <td>{dateTime(r.ts)}</td>
              <td>
                <code>
                  {r.method} {r.path}
                </code>
              </td>
              <td>{r.status}</td>
              <td>{r.ip}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
