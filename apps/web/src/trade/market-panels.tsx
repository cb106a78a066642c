import type { Level, SymbolRecord, TickerItem, TradeItem } from '../shared/market-types';
import { changePercent, time } from '../shared/format';

export function MarketBar({
  symbol,
  ticker,
  connected,
}: {
  symbol: SymbolRecord;
  ticker?: TickerItem;
  connected: boolean;
}) {
  const change = ticker ? changePercent(ticker.o, ticker.c) : '—';
  return (
    <section class="market-bar" aria-label="Market summary">
      <div>
        <span class="label">Last price</span>
        <strong class="last">{ticker?.c ?? '—'}</strong>
      </div>
      <div>
        <span class="label">24h change</span>
        <span class={change.startsWith('-') ? 'down' : 'up'}>{change}</span>
      </div>
      <div>
        <span class="label">24h high</span>
        {ticker?.h ?? '—'}
      </div>
      <div>
        <span class="label">24h low</span>
        {ticker?.l ?? '—'}
      </div>
      <div>
        <span class="label">24h volume ({symbol.baseAsset})</span>
        {ticker?.v ?? '—'}
      </div>
      <div class="status" role="status">
        {connected ? 'live' : 'connecting…'}
      </div>
    </section>
  );
}

export function OrderBook({
  bids,
  asks,
  symbol,
  onPick,
}: {
  bids: Level[];
  asks: Level[];
  symbol: SymbolRecord;
  onPick(price: string): void;
}) {
  const rows = (levels: Level[], side: 'ask' | 'bid') =>
    levels.map(([price, qty]) => (
      <tr key={`${side}${price}`} class={side} onClick={() => onPick(price)}>
        <td>{price}</td>
        <td>{qty}</td>
      </tr>
    ));
  return (
    <section class="panel book" aria-label="Order book">
      <h2>Order book</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Price ({symbol.quoteAsset})</th>
            <th scope="col">Amount ({symbol.baseAsset})</th>
          </tr>
        </thead>
        <tbody aria-label="Asks">{rows(asks.slice(0, 12).reverse(), 'ask')}</tbody>
        <tbody aria-label="Bids">{rows(bids.slice(0, 12), 'bid')}</tbody>
      </table>
    </section>
  );
}

export function RecentTrades({ trades, symbol }: { trades: TradeItem[]; symbol: SymbolRecord }) {
  return (
    <section class="panel trades" aria-label="Recent trades">
      <h2>Recent trades</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Price ({symbol.quoteAsset})</th>
            <th scope="col">Amount ({symbol.baseAsset})</th>
            <th scope="col">Time</th>
          </tr>
        </thead>
        <tbody>
          {trades.slice(0, 25).map((t) => (
            <tr key={t.v} class={t.m ? 'ask' : 'bid'}>
              <td>{t.p}</td>
              <td>{t.q}</td>
              <td>{time(t.t)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
