import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { RequestDurations } from './request-durations';

/**
 * The Prometheus metrics of one process, served at /metrics. Services add their own with the
 * helpers below; names follow Prometheus conventions (`_total` counters, `_seconds` durations).
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: RequestDurations;
  readonly rateLimitRejections: Counter<'limit'>;

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new RequestDurations({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by route pattern and status code',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [this.registry],
    });
    this.rateLimitRejections = this.counter('rate_limit_rejections_total', 'Requests refused by a rate limiter', [
      'limit',
    ]);
  }

  counter<L extends string>(name: string, help: string, labelNames: L[] = []): Counter<L> {
    return (
      (this.registry.getSingleMetric(name) as Counter<L> | undefined) ??
      new Counter({ name, help, labelNames, registers: [this.registry] })
    );
  }

  /** `collect` runs at each scrape, for values read rather than counted (a backlog, a lag). */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: L[] = [],
    collect?: (gauge: Gauge<L>) => Promise<void> | void,
  ): Gauge<L> {
    const existing = this.registry.getSingleMetric(name) as Gauge<L> | undefined;
    if (existing) return existing;
    return new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      ...(collect
        ? {
            collect(this: Gauge<L>) {
              return collect(this);
            },
          }
        : {}),
    });
  }

  histogram<L extends string>(name: string, help: string, labelNames: L[] = [], buckets?: number[]): Histogram<L> {
    return (
      (this.registry.getSingleMetric(name) as Histogram<L> | undefined) ??
      new Histogram({ name, help, labelNames, buckets, registers: [this.registry] })
    );
  }
}
