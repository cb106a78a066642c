/** Display helpers: amounts stay the API's decimal strings; only charts turn them into numbers. */
export function time(ms: number | string): string {
  const d = new Date(Number(ms));
  return d.toISOString().slice(11, 19);
}

export function dateTime(ms: number | string): string {
  return new Date(Number(ms)).toISOString().replace('T', ' ').slice(0, 19);
}

/** 24 h change as a percentage with two decimals, from the open and last price. */
export function changePercent(open: string, last: string): string {
  const o = Number(open);
  if (!o) return '0.00%';
  const pct = ((Number(last) - o) / o) * 100;
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(2)}%`;
}

export function decimalsOf(step: string | undefined): number {
  if (!step) return 8;
  const trimmed = step.replace(/0+$/, '');
  const point = trimmed.indexOf('.');
  return point < 0 ? 0 : trimmed.length - point - 1;
}
