import type { Level } from '../shared/market-types';

const WIDTH = 400;
const HEIGHT = 160;

/** Cumulative bid and ask quantity against price, as two SVG areas (a chart too small for a library). */
export function DepthChart({ bids, asks }: { bids: Level[]; asks: Level[] }) {
  const cumulative = (levels: Level[]) => {
    let total = 0;
    return levels.map(([p, q]) => [Number(p), (total += Number(q))] as const);
  };
  const b = cumulative(bids);
  const a = cumulative(asks);
  const prices = [...b, ...a].map(([p]) => p);
  const maxQty = Math.max(0, ...b.map(([, q]) => q), ...a.map(([, q]) => q));
  if (prices.length === 0 || maxQty === 0) {
    return (
      <figure class="panel depth" aria-label="Depth chart">
        <figcaption>Depth</figcaption>
        <p class="empty">The book is empty.</p>
      </figure>
    );
  }
  const lo = Math.min(...prices);
  const hi = Math.max(...prices);
  const x = (p: number) => (hi === lo ? WIDTH / 2 : ((p - lo) / (hi - lo)) * WIDTH);
  const y = (q: number) => HEIGHT - (q / maxQty) * (HEIGHT - 10);
  const area = (points: (readonly [number, number])[]) => {
    if (points.length === 0) return '';
    const steps = points.map(([p, q]) => `L${x(p).toFixed(1)},${y(q).toFixed(1)}`).join(' ');
    const first = points[0]!;
    const last = points[points.length - 1]!;
    return `M${x(first[0]).toFixed(1)},${HEIGHT} ${steps} L${x(last[0]).toFixed(1)},${HEIGHT} Z`;
  };
  return (
    <figure class="panel depth" aria-label="Depth chart">
      <figcaption>
        Depth · {bids[0]?.[0] ?? '—'} / {asks[0]?.[0] ?? '—'}
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={`Depth: ${bids.length} bid levels, ${asks.length} ask levels`}>
        <path d={area(b)} class="bid-area" />
        <path d={area(a)} class="ask-area" />
      </svg>
    </figure>
  );
}
