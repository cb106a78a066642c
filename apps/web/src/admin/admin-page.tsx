import { render } from 'preact';
import { useState } from 'preact/hooks';
import { errorText, OperatorApi } from '../shared/signed-api';
import { AuditTrail, Deposits, Symbols, Users, Withdrawals } from './admin-sections';
import '../shared/page.css';

/** The operator console: the token lives in this page's memory only; a reload signs out. */
function AdminApp() {
  const [api, setApi] = useState<OperatorApi>();
  const [token, setToken] = useState('');
  const [error, setError] = useState('');
  const [version, setVersion] = useState(0);
  const bump = () => setVersion((v) => v + 1);

  const signIn = async () => {
    setError('');
    const candidate = new OperatorApi(token.trim());
    try {
      await candidate.call('GET', '/admin/v1/users?limit=1');
      setToken('');
      setApi(candidate);
    } catch (e) {
      setError(errorText(e));
    }
  };

  return (
    <>
      <header class="top">
        <h1>Exchange · operator console</h1>
        {api ? (
          <p class="who">
            <button type="button" class="secondary" onClick={bump}>
              Refresh
            </button>
            <button type="button" class="secondary" onClick={() => setApi(undefined)}>
              Sign out
            </button>
          </p>
        ) : (
          <form class="sign-in" aria-label="Operator sign in" onSubmit={(e) => (e.preventDefault(), void signIn())}>
            <label>
              Operator token
              <input
                type="text"
                class="secret"
                autocomplete="off"
                spellcheck={false}
                value={token}
                onInput={(e) => setToken(e.currentTarget.value)}
              />
            </label>
            <button type="submit">Sign in</button>
            {error && (
              <p role="alert" class="error">
                {error}
              </p>
            )}
          </form>
        )}
      </header>
      {api && (
        <main class="admin">
          <Withdrawals api={api} version={version} bump={bump} />
          <Users api={api} version={version} bump={bump} />
          <Deposits api={api} version={version} />
          <Symbols api={api} bump={bump} />
          <AuditTrail api={api} version={version} />
        </main>
      )}
    </>
  );
}

render(<AdminApp />, document.getElementById('app')!);
