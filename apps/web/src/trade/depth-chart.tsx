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
  // A margin around the levels, so a thin book (one level, one side) still shows as an area.
  const pad = Math.max((Math.max(...prices) - Math.min(...prices)) * 0.1, Math.max(...prices) * 0.002);
  const lo = Math.min(...prices) - pad;
  const hi = Math.max(...prices) + pad;
  const x = (p: number) => ((p - lo) / (hi - lo)) * WIDTH;
  const y = (q: number) => HEIGHT - (q / maxQty) * (HEIGHT - 10);
  // A step line from the best price outwards (bids to the left edge, asks to the right), closed to the axis.
  const area = (points: (readonly [number, number])[], edge: number) => {
    if (points.length === 0) return '';
    const f = (n: number) => n.toFixed(1);
    let path = `M${f(x(points[0]![0]))},${HEIGHT}`;
    let previous = HEIGHT;
    for (const [p, q] of points) {
      path += ` L${f(x(p))},${f(previous)} L${f(x(p))},${f(y(q))}`;
      previous = y(q);
    }
    return `${path} L${edge},${f(previous)} L${edge},${HEIGHT} Z`;
  };

  return (
    <figure class="panel depth" aria-label="Depth chart">
      <figcaption>
        Depth · {bids[0]?.[0] ?? '—'} / {asks[0]?.[0] ?? '—'}
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Depth: ${bids.length} bid levels, ${asks.length} ask levels`}
      >
        <path d={area(b, 0)} class="bid-area" />
        <path d={area(a, WIDTH)} class="ask-area" />
      </svg>
    </figure>
  );
}
