/** One sample of the Prometheus text format: `name{labels} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function parseSamples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    out.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return out;
}

/** Values of the samples of a metric whose labels include `labels`. */
export function samples(text: string, name: string, labels: Record<string, string> = {}): number[] {
  return parseSamples(text)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .map((s) => s.value);
}

/**
 * The upper bound of the bucket holding quantile `q` of a histogram (summed over the series that
 * match `labels`): what Prometheus's histogram_quantile would bracket, without interpolation.
 */
export function bucketQuantile(
  all: readonly Sample[],
  name: string,
  q: number,
  labels: Record<string, string> = {},
): number | undefined {
  const byBound = new Map<number, number>();
  for (const s of all) {
    if (s.name !== `${name}_bucket` || !Object.entries(labels).every(([k, v]) => s.labels[k] === v)) continue;
    const bound = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
    byBound.set(bound, (byBound.get(bound) ?? 0) + s.value);
  }
  const bounds = [...byBound.keys()].sort((a, b) => a - b);
  const total = byBound.get(Infinity) ?? 0;
  if (total === 0) return undefined;
  return bounds.find((b) => byBound.get(b)! >= q * total);
}

export function sum(all: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  return all
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((a, s) => a + s.value, 0);
}
