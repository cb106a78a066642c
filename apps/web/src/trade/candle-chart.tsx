import { useEffect, useRef, useState } from 'preact/hooks';
import type { CandlestickData, IChartApi, ISeriesApi, UTCTimestamp } from 'lightweight-charts';
import type { KlineItem } from '../shared/market-types';
import { publicGet } from '../shared/signed-api';
import { time } from '../shared/format';
import { KLINE_INTERVAL } from './use-market';

type KlineRow = [number, string, string, string, string, string];

const toBar = (t: number, o: string, h: string, l: string, c: string): CandlestickData<UTCTimestamp> => ({
  time: (t / 1000) as UTCTimestamp,
  open: Number(o),
  high: Number(h),
  low: Number(l),
  close: Number(c),
});

/**
 * Candles from REST klines, then merged with the kline stream. lightweight-charts (TradingView,
 * Apache-2.0) is loaded on demand in its own chunk so the page's first load does not wait for it.
 * Its licence asks for the NOTICE attribution and a link to tradingview.com on the page: they are
 * in the chart's heading and the footer. The library's own logo is off because it injects an
 * inline <style>, which the pages' CSP (self only) refuses.
 */
export function CandleChart({ symbol, kline }: { symbol: string; kline?: KlineItem }) {
  const host = useRef<HTMLDivElement>(null);
  const series = useRef<ISeriesApi<'Candlestick'> | undefined>(undefined);
  const [last, setLast] = useState<KlineItem>();

  useEffect(() => {
    let chart: IChartApi | undefined;
    let cancelled = false;
    setLast(undefined);
    void (async () => {
      const [lib, rows] = await Promise.all([
        import('lightweight-charts'),
        publicGet<KlineRow[]>('/openapi/quote/v1/klines', { symbol, interval: KLINE_INTERVAL, limit: 300 }),
      ]);
      if (cancelled || !host.current) return;
      chart = lib.createChart(host.current, {
        autoSize: true,
        layout: { background: { color: '#131722' }, textColor: '#c8ccd6', attributionLogo: false },
        grid: { vertLines: { color: '#1f2433' }, horzLines: { color: '#1f2433' } },
        timeScale: { timeVisible: true, secondsVisible: false },
      });
      series.current = chart.addSeries(lib.CandlestickSeries, {
        upColor: '#26a69a',
        downColor: '#ef5350',
        borderVisible: false,
        wickUpColor: '#26a69a',
        wickDownColor: '#ef5350',
      });
      series.current.setData(rows.map((r) => toBar(r[0], r[1], r[2], r[3], r[4])));
      const latest = rows[rows.length - 1];
      if (latest)
        setLast(
          (current) =>
            current ?? { t: latest[0], o: latest[1], h: latest[2], l: latest[3], c: latest[4], v: latest[5] },
        );
    })();
    return () => {
      cancelled = true;
      series.current = undefined;
      chart?.remove();
    };
  }, [symbol]);

  useEffect(() => {
    if (!kline) return;
    series.current?.update(toBar(kline.t, kline.o, kline.h, kline.l, kline.c));
    setLast(kline);
  }, [kline]);

  return (
    <section class="panel chart" aria-label="Chart">
      <div class="chart-head">
        <h2>Chart · {KLINE_INTERVAL}</h2>
        <a class="attribution" href="https://www.tradingview.com/" rel="noopener noreferrer">
          by TradingView
        </a>
        <p role="status" aria-label="Last candle">
          {last ? `${time(last.t)} O ${last.o} H ${last.h} L ${last.l} C ${last.c} V ${last.v}` : 'no trades yet'}
        </p>
      </div>
      <div class="chart-canvas" ref={host} />
    </section>
  );
}
