import { Histogram, Registry } from 'prom-client';
import { RequestDurations } from './request-durations';

const buckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
const config = {
  name: 'http_request_duration_seconds',
  help: 'h',
  labelNames: ['method', 'route', 'status'] as const,
  buckets,
};

function pair(): {
  ours: RequestDurations;
  theirs: Histogram<'method' | 'route' | 'status'>;
  texts(): Promise<string[]>;
} {
  const a = new Registry();
  const b = new Registry();
  a.setDefaultLabels({ service: 'x' });
  b.setDefaultLabels({ service: 'x' });
  const ours = new RequestDurations({ ...config, labelNames: [...config.labelNames], registers: [a] });
  const theirs = new Histogram({ ...config, labelNames: [...config.labelNames], registers: [b] });
  return { ours, theirs, texts: async () => [await a.metrics(), await b.metrics()] };
}

const requests: [string, string, number, number][] = [
  ['GET', '/openapi/quote/v1/depth', 200, 0.0004],
  ['GET', '/openapi/quote/v1/depth', 200, 0.003],
  ['GET', '/openapi/quote/v1/depth', 429, 0.0007],
  ['POST', '/openapi/v1/order', 200, 0.02],
  ['GET', '/openapi/quote/v1/depth', 200, 0.0005],
  ['GET', 'unmatched', 404, 12],
  ['POST', '/openapi/v1/order', 200, 0.2],
];

describe('RequestDurations', () => {
  it('renders at /metrics what prom-client observe() renders for the same requests', async () => {
    const { ours, theirs, texts } = pair();
    for (const [method, route, status, seconds] of requests) {
      ours.record(method, route, status, seconds);
      theirs.observe({ method, route, status: String(status) }, seconds);
    }
    const [a, b] = await texts();
    expect(a).toBe(b);
    expect(a).toContain(
      'http_request_duration_seconds_count{service="x",method="GET",route="/openapi/quote/v1/depth",status="200"} 3',
    );
  });

  it('starts again from zero after a reset', async () => {
    const { ours, theirs, texts } = pair();
    for (const [method, route, status, seconds] of requests) ours.record(method, route, status, seconds);
    ours.reset();
    for (const [method, route, status, seconds] of requests.slice(0, 3)) {
      ours.record(method, route, status, seconds);
      theirs.observe({ method, route, status: String(status) }, seconds);
    }
    const [a, b] = await texts();
    expect(a).toBe(b);
  });
});
