import { useState } from 'preact/hooks';
import type { Balance, SymbolRecord } from '../shared/market-types';
import { errorText, type SignedApi } from '../shared/signed-api';

/**
 * LIMIT and MARKET, BUY and SELL. A MARKET BUY's quantity is the quote amount to spend (the
 * spec's rule), so the label says which asset each field is in.
 */
export function OrderForm({
  api,
  symbol,
  balances,
  price,
  onPrice,
  onPlaced,
}: {
  api?: SignedApi;
  symbol: SymbolRecord;
  balances: Balance[];
  price: string;
  onPrice(p: string): void;
  onPlaced(): void;
}) {
  const [type, setType] = useState<'LIMIT' | 'MARKET'>('LIMIT');
  const [quantity, setQuantity] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  const [busy, setBusy] = useState(false);
  const free = (asset: string) => balances.find((b) => b.asset === asset)?.free ?? '0';

  const place = async (side: 'BUY' | 'SELL') => {
    if (!api) return;
    setBusy(true);
    setMessage(undefined);
    try {
      const order = await api.call<{ orderId: string; status: string; executedQty: string }>(
        'POST',
        '/openapi/v1/order',
        {
          symbol: symbol.symbol,
          side,
          type,
          quantity,
          ...(type === 'LIMIT' ? { price, timeInForce: 'GTC' } : {}),
        },
      );
      setMessage({ ok: true, text: `Order ${order.orderId} ${order.status}` });
      onPlaced();
    } catch (error) {
      setMessage({ ok: false, text: errorText(error) });
    } finally {
      setBusy(false);
    }
  };

  const quantityAsset =
    type === 'MARKET' ? `${symbol.baseAsset} to sell, ${symbol.quoteAsset} to spend on a buy` : symbol.baseAsset;
  return (
    <form class="panel order-form" aria-label="Place order" onSubmit={(e) => e.preventDefault()}>
      <h2>Place order</h2>
      <fieldset class="type">
        <legend>Order type</legend>
        {(['LIMIT', 'MARKET'] as const).map((t) => (
          <label key={t}>
            <input type="radio" name="order-type" checked={type === t} onChange={() => setType(t)} />{' '}
            {t === 'LIMIT' ? 'Limit' : 'Market'}
          </label>
        ))}
      </fieldset>
      <p class="available">
        Available: {free(symbol.quoteAsset)} {symbol.quoteAsset} · {free(symbol.baseAsset)} {symbol.baseAsset}
      </p>
      <label>
        Price
        <input
          type="text"
          inputMode="decimal"
          value={type === 'MARKET' ? '' : price}
          disabled={type === 'MARKET'}
          placeholder={type === 'MARKET' ? 'market' : symbol.quoteAsset}
          onInput={(e) => onPrice(e.currentTarget.value)}
        />
      </label>
      <label>
        Quantity
        <input
          type="text"
          inputMode="decimal"
          value={quantity}
          placeholder={quantityAsset}
          onInput={(e) => setQuantity(e.currentTarget.value)}
        />
      </label>
      <div class="sides">
        <button type="button" class="buy" disabled={!api || busy} onClick={() => void place('BUY')}>
          Buy
        </button>
        <button type="button" class="sell" disabled={!api || busy} onClick={() => void place('SELL')}>
          Sell
        </button>
      </div>
      {!api && <p class="hint">Sign in to trade.</p>}
      {message && (
        <p role={message.ok ? 'status' : 'alert'} class={message.ok ? 'ok' : 'error'}>
          {message.text}
        </p>
      )}
    </form>
  );
}
