/** Summary statistics the benchmarks print: runs as min / median / max, latencies as percentiles. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

export interface Spread {
  min: number;
  median: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0] ?? NaN, median: percentile(sorted, 50), max: sorted[sorted.length - 1] ?? NaN };
}

export interface LinearFit {
  slope: number;
  intercept: number;
  /** Standard error of the slope: how far noise alone may move it. */
  slopeError: number;
}

/** Least-squares line through (x, y) points: a trend over all samples, not one between two of them. */
export function linearFit(points: readonly { x: number; y: number }[]): LinearFit {
  const n = points.length;
  if (n < 2) return { slope: NaN, intercept: NaN, slopeError: NaN };
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  const sxx = points.reduce((sum, p) => sum + (p.x - meanX) ** 2, 0);
  const sxy = points.reduce((sum, p) => sum + (p.x - meanX) * (p.y - meanY), 0);
  const slope = sxy / sxx;
  const intercept = meanY - slope * meanX;
  const residuals = points.reduce((sum, p) => sum + (p.y - intercept - slope * p.x) ** 2, 0);
  const slopeError = n > 2 ? Math.sqrt(residuals / (n - 2) / sxx) : NaN;
  return { slope, intercept, slopeError };
}

export interface TwoFactorFit {
  /** Change of y per unit of x1 with x2 held, and of y per unit of x2 with x1 held, ± standard errors. */
  slopes: [number, number];
  errors: [number, number];
}

/**
 * Least squares of y = a + b1·x1 + b2·x2: separates two causes that move together in a run (e.g.
 * the orders so far and the orders within a time window, which rise and fall with the rate).
 */
export function twoFactorFit(points: readonly { x1: number; x2: number; y: number }[]): TwoFactorFit {
  const n = points.length;
  const mean = (pick: (p: { x1: number; x2: number; y: number }) => number): number =>
    points.reduce((sum, p) => sum + pick(p), 0) / n;
  const [m1, m2, my] = [mean((p) => p.x1), mean((p) => p.x2), mean((p) => p.y)];
  const sum = (f: (p: { x1: number; x2: number; y: number }) => number): number =>
    points.reduce((total, p) => total + f(p), 0);
  const s11 = sum((p) => (p.x1 - m1) ** 2);
  const s22 = sum((p) => (p.x2 - m2) ** 2);
  const s12 = sum((p) => (p.x1 - m1) * (p.x2 - m2));
  const s1y = sum((p) => (p.x1 - m1) * (p.y - my));
  const s2y = sum((p) => (p.x2 - m2) * (p.y - my));
  const det = s11 * s22 - s12 * s12;
  if (n < 4 || det === 0) return { slopes: [NaN, NaN], errors: [NaN, NaN] };
  const b1 = (s22 * s1y - s12 * s2y) / det;
  const b2 = (s11 * s2y - s12 * s1y) / det;
  const a = my - b1 * m1 - b2 * m2;
  const variance = sum((p) => (p.y - a - b1 * p.x1 - b2 * p.x2) ** 2) / (n - 3);
  return { slopes: [b1, b2], errors: [Math.sqrt((variance * s22) / det), Math.sqrt((variance * s11) / det)] };
}

export function formatNumber(n: number, digits = 0): string {
  return Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';
}

export function formatSpread(s: Spread, digits = 0): string {
  return `${formatNumber(s.median, digits)} (${formatNumber(s.min, digits)}–${formatNumber(s.max, digits)})`;
}
