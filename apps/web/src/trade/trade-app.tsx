import { useEffect, useState } from 'preact/hooks';
import type { BrokerInfo, SymbolRecord } from '../shared/market-types';
import { errorText, publicGet, type SignedApi } from '../shared/signed-api';
import { Balances, BalanceFlow, MyTrades, OpenOrders, OrderHistory, Wallet } from './account-panels';
import { CandleChart } from './candle-chart';
import { ContractsPanel } from './contract-panels';
import { DepthChart } from './depth-chart';
import { MarketBar, OrderBook, RecentTrades } from './market-panels';
import { OrderForm } from './order-form';
import { SignIn } from './sign-in';
import { useAccount } from './use-account';
import { useMarket } from './use-market';

export function TradeApp() {
  const [symbols, setSymbols] = useState<SymbolRecord[]>([]);
  const [error, setError] = useState('');
  const [symbolName, setSymbolName] = useState(() => new URLSearchParams(location.search).get('symbol') ?? '');
  const [api, setApi] = useState<SignedApi>();
  const [price, setPrice] = useState('');

  useEffect(() => {
    publicGet<BrokerInfo>('/openapi/v1/brokerInfo')
      .then((info) => {
        setSymbols(info.symbols);
        setSymbolName((current) =>
          info.symbols.some((s) => s.symbol === current) ? current : (info.symbols[0]?.symbol ?? ''),
        );
      })
      .catch((e: unknown) => setError(errorText(e)));
  }, []);

  const symbol = symbols.find((s) => s.symbol === symbolName);
  const market = useMarket(symbolName);
  const account = useAccount(api, symbolName);
  const assets = [...new Set(symbols.flatMap((s) => [s.baseAsset, s.quoteAsset]))].sort();

  return (
    <>
      <header class="top">
        <h1>Exchange</h1>
        <label class="picker">
          Market
          <select value={symbolName} onChange={(e) => setSymbolName(e.currentTarget.value)}>
            {symbols.map((s) => (
              <option key={s.symbol} value={s.symbol}>
                {s.baseAsset}/{s.quoteAsset}
                {s.status === 'TRADING' ? '' : ` (${s.status})`}
              </option>
            ))}
          </select>
        </label>
        {api ? (
          <p class="who">
            Signed in as <code>{api.apiKey.slice(0, 8)}…</code> {account.state.streaming ? '· live' : '· connecting'}
            <button type="button" class="secondary" onClick={() => setApi(undefined)}>
              Sign out
            </button>
          </p>
        ) : (
          <SignIn onSignedIn={setApi} />
        )}
      </header>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {symbol && (
        <main class="trade">
          <MarketBar symbol={symbol} ticker={market.ticker} connected={market.connected} />
          <div class="grid">
            <CandleChart symbol={symbol.symbol} kline={market.kline} />
            <OrderBook bids={market.bids} asks={market.asks} symbol={symbol} onPick={setPrice} />
            <div class="column">
              <OrderForm
                api={api}
                symbol={symbol}
                balances={account.state.balances}
                price={price}
                onPrice={setPrice}
                onPlaced={account.refresh}
              />
              <DepthChart bids={market.bids} asks={market.asks} />
            </div>
            <RecentTrades trades={market.trades} symbol={symbol} />
          </div>
          {api && (
            <div class="account">
              <OpenOrders api={api} orders={account.state.openOrders} onChange={account.refresh} />
              <Balances balances={account.state.balances} />
              <OrderHistory orders={account.state.history} />
              <MyTrades trades={account.state.trades} />
              <BalanceFlow flow={account.state.flow} />
              <ContractsPanel
                api={api}
                account={account.state.contracts.account}
                positions={account.state.contracts.positions}
                orders={account.state.contracts.openOrders}
                onChange={account.refresh}
              />
              <Wallet
                api={api}
                assets={assets}
                withdrawals={account.state.withdrawals}
                deposits={account.state.deposits}
                onChange={account.refresh}
              />
            </div>
          )}
        </main>
      )}
      <footer>
        Charts: TradingView Lightweight Charts™, Copyright (c) 2025 TradingView, Inc.,{' '}
        <a href="https://www.tradingview.com/" rel="noopener noreferrer">
          https://www.tradingview.com/
        </a>{' '}
        (Apache-2.0).
      </footer>
    </>
  );
}
