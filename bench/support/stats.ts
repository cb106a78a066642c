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

export function formatNumber(n: number, digits = 0): string {
  return Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';
}

export function formatSpread(s: Spread, digits = 0): string {
  return `${formatNumber(s.median, digits)} (${formatNumber(s.min, digits)}–${formatNumber(s.max, digits)})`;
}
