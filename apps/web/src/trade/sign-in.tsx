import { useState } from 'preact/hooks';
import { errorText, SignedApi } from '../shared/signed-api';

/**
 * API key and secret are turned into a SignedApi, checked with GET /account, and kept in memory
 * only: a reload signs out. The secret box is a text box shown as dots (a password field would
 * invite the browser to save the secret).
 */
export function SignIn({ onSignedIn }: { onSignedIn(api: SignedApi): void }) {
  const [apiKey, setApiKey] = useState('');
  const [secretKey, setSecretKey] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const signIn = async (key: string, secret: string) => {
    setBusy(true);
    setError('');
    try {
      const api = await SignedApi.create(key, secret);
      await api.call('GET', '/openapi/v1/account');
      setSecretKey('');
      onSignedIn(api);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const demo = async () => {
    setError('');
    const response = await fetch('/web/v1/demo-key', { cache: 'no-store' });
    const body = (await response.json()) as { apiKey?: string; secretKey?: string; msg?: string };
    if (!response.ok || !body.apiKey || !body.secretKey)
      return setError(body.msg ?? 'The demo account is not offered here.');
    await signIn(body.apiKey, body.secretKey);
  };

  return (
    <form
      class="sign-in"
      aria-label="Sign in"
      onSubmit={(e) => (e.preventDefault(), void signIn(apiKey.trim(), secretKey.trim()))}
    >
      <label>
        API key
        <input
          type="text"
          autocomplete="off"
          spellcheck={false}
          value={apiKey}
          onInput={(e) => setApiKey(e.currentTarget.value)}
        />
      </label>
      <label>
        Secret key
        <input
          type="text"
          class="secret"
          autocomplete="off"
          spellcheck={false}
          value={secretKey}
          onInput={(e) => setSecretKey(e.currentTarget.value)}
        />
      </label>
      <button type="submit" disabled={busy}>
        Sign in
      </button>
      <button type="button" class="secondary" disabled={busy} onClick={() => void demo()}>
        Use demo account
      </button>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </form>
  );
}
