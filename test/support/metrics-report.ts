import { http } from './http-client';
import { bucketQuantile, parseSamples, type Sample, sum } from './prometheus-text';

const ms = (seconds: number | undefined): string =>
  seconds === undefined ? '-' : seconds === Infinity ? '>10 s' : `≤${Math.round(seconds * 1000 * 10) / 10} ms`;
const round = (n: number, places = 1): number => Math.round(n * 10 ** places) / 10 ** places;

/** What an operator would look at on one process's /metrics, in a few lines. */
function describeProcess(name: string, all: Sample[]): string[] {
  const lines: string[] = [];
  const cpu = sum(all, 'process_cpu_seconds_total');
  const rss = sum(all, 'process_resident_memory_bytes') / 2 ** 20;
  lines.push(`${name}: cpu ${round(cpu)} s, rss ${Math.round(rss)} MiB`);
  const requests = sum(all, 'http_request_duration_seconds_count');
  if (requests > 0) {
    const routes = new Map<string, number>();
    for (const s of all)
      if (s.name === 'http_request_duration_seconds_count')
        routes.set(
          `${s.labels.method} ${s.labels.route} ${s.labels.status}`,
          (routes.get(`${s.labels.method} ${s.labels.route} ${s.labels.status}`) ?? 0) + s.value,
        );
    const top = [...routes]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, v]) => `${k} ×${v}`);
    lines.push(
      `  http: ${requests} requests, p50 ${ms(bucketQuantile(all, 'http_request_duration_seconds', 0.5))}, p99 ${ms(bucketQuantile(all, 'http_request_duration_seconds', 0.99))}; top: ${top.join(', ')}`,
    );
  }
  const refused = sum(all, 'rate_limit_rejections_total') + sum(all, 'gateway_overload_rejections_total');
  if (all.some((s) => s.name === 'gateway_pending_requests'))
    lines.push(
      `  gateway: pending ${sum(all, 'gateway_pending_requests')}, pipeline lag ${sum(all, 'gateway_pipeline_lag')}, refused (rate limit + overload) ${refused}`,
    );
  const batches = sum(all, 'ledger_batch_commands_count');
  if (batches > 0) {
    lines.push(
      `  ledger: ${sum(all, 'ledger_commands_total')} commands in ${batches} batches (mean ${round(sum(all, 'ledger_batch_commands_sum') / batches)}), ` +
        `projection commit mean ${ms(sum(all, 'ledger_projection_commit_seconds_sum') / sum(all, 'ledger_projection_commit_seconds_count'))} p99 ${ms(bucketQuantile(all, 'ledger_projection_commit_seconds', 0.99))}`,
    );
  }
  for (const s of all) if (s.name.endsWith('_outbox_backlog')) lines.push(`  ${s.name} ${s.value}`);
  const groups = new Map<string, { consumed: number; lag: number }>();
  for (const s of all) {
    if (s.name !== 'event_log_consumed_records_total' && s.name !== 'event_log_consumer_lag') continue;
    const key = `${s.labels.group?.replace(/[0-9a-f-]{36}$|\.\d+$/, '…')} ← ${s.labels.topic}`;
    const g = groups.get(key) ?? { consumed: 0, lag: 0 };
    if (s.name === 'event_log_consumed_records_total') g.consumed += s.value;
    else g.lag = Math.max(g.lag, s.value);
    groups.set(key, g);
  }
  for (const [group, g] of groups) lines.push(`  consumer ${group}: ${g.consumed} records, max lag ${g.lag}`);
  const sockets = sum(all, 'user_stream_sockets');
  if (all.some((s) => s.name === 'user_stream_sockets'))
    lines.push(
      `  user stream: ${sockets} sockets open, ${sum(all, 'user_stream_frames_total')} frames sent, ${sum(all, 'user_stream_slow_consumers_total')} slow sockets dropped`,
    );
  return lines;
}

/** Scrapes every process and describes what its metrics show. */
export async function metricsReport(processes: readonly { name: string; metricsUrl: string }[]): Promise<string> {
  const lines: string[] = [];
  for (const p of processes) {
    const text = (await http<string>(p.metricsUrl, 'GET', '/metrics')).body;
    lines.push(...describeProcess(p.name, parseSamples(text)));
  }
  return lines.join('\n');
}
