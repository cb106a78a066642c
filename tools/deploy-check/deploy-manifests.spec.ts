import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { allTopics } from '@exchange/contracts';
import { PUBLIC_STREAM_PATH } from '@exchange/market-data';
import { USER_STREAM_PATH } from '@exchange/user-stream';
import { configVariableNames, HEALTH_LIVE_PATH, HEALTH_READY_PATH, METRICS_PATH } from '@exchange/platform';

/**
 * deploy/ and docker-compose.yml checked against the code, so a renamed variable, route, topic
 * or service cannot drift silently: every environment variable is one the configuration schema
 * declares, probes hit the real health routes, topics are those of libs/contracts, and each
 * service runs its own app.
 */
const services = ['api-gateway', 'ledger', 'matching-engine', 'market-data', 'user-stream', 'wallet'];
const k8sDir = 'deploy/k8s';
const known = new Set<string>(configVariableNames);

interface Container {
  command?: string[];
  env?: { name: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { containerPort: number; name: string }[];
  readinessProbe?: { httpGet?: { path: string } };
  livenessProbe?: { httpGet?: { path: string } };
  resources?: { requests?: { memory?: string }; limits?: { memory?: string } };
}
interface Resource {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: { template?: { metadata?: { annotations?: Record<string, string> }; spec: { containers: Container[] } } };
}

const resources: Resource[] = readdirSync(k8sDir)
  .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
  .flatMap((f) => parseAllDocuments(readFileSync(join(k8sDir, f), 'utf8')).map((d) => d.toJSON() as Resource))
  .filter(Boolean);
const mebibytes = (q: string): number => Number(q.replace(/(Mi|Gi)$/, '')) * (q.endsWith('Gi') ? 1024 : 1);
const workloads = resources.filter((r) => r.kind === 'Deployment' || r.kind === 'StatefulSet');
const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
  services: Record<
    string,
    { command?: string[]; environment?: Record<string, string>; healthcheck?: { test: string[] } }
  >;
};

describe('deploy manifests and docker-compose.yml against the code', () => {
  it.each(services)('runs %s as its own app in Kubernetes and in compose', (service) => {
    const workload = workloads.find((w) => w.metadata.name === service);
    expect(workload).toBeDefined();
    const command = workload!.spec!.template!.spec.containers[0]!.command!;
    expect(command).toEqual([
      'node',
      expect.stringMatching(/^--max-old-space-size=\d+$/),
      'scripts/run.js',
      `apps/${service}/src/main.ts`,
    ]);
    expect(existsSync(`apps/${service}/src/main.ts`)).toBe(true);
    const inCompose = Object.entries(compose.services).filter(([, s]) =>
      s.command?.includes(`apps/${service}/src/main.ts`),
    );
    expect(inCompose.length).toBeGreaterThan(0);
  });

  it('sets only variables the configuration schema declares', () => {
    const configMap = resources.find((r) => r.kind === 'ConfigMap' && r.metadata.name === 'exchange-config')!;
    const k8sNames = [
      ...Object.keys(configMap.data ?? {}),
      ...workloads.flatMap((w) => w.spec!.template!.spec.containers.flatMap((c) => (c.env ?? []).map((e) => e.name))),
    ];
    const apps = Object.values(compose.services).filter((s) => s.command?.[0] === 'node');
    expect(apps.length).toBeGreaterThanOrEqual(services.length);
    const composeNames = apps.flatMap((s) => Object.keys(s.environment ?? {}));
    const appNames = [...k8sNames, ...composeNames];
    expect(appNames.filter((n) => !known.has(n))).toEqual([]);
    const secretNames = ['ADMIN_TOKEN', 'SECRET_ENCRYPTION_KEY', 'DATABASE_URL', 'REDIS_URL'];
    for (const n of secretNames) expect(known.has(n)).toBe(true);
    for (const w of workloads.filter((x) => x.metadata.name !== 'edge')) {
      const from = w.spec!.template!.spec.containers[0]!.envFrom ?? [];
      expect(from.map((f) => f.configMapRef?.name ?? f.secretRef?.name)).toEqual([
        'exchange-config',
        'exchange-secrets',
      ]);
    }
  });

  it("gives each service the memory request and limit of README's table of what it keeps, the limit above the request", () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('### Memory: what each service keeps'));
    for (const service of services) {
      const row = section.split('\n').find((line) => line.startsWith(`| ${service} |`));
      expect({ service, row }).toEqual({ service, row: expect.any(String) });
      const [request, limit] = row!.split('|').at(-2)!.trim().split(' / ');
      const memory = workloads.find((w) => w.metadata.name === service)!.spec!.template!.spec.containers[0]!.resources;
      expect({ service, request: memory?.requests?.memory, limit: memory?.limits?.memory }).toEqual({
        service,
        request,
        limit,
      });
      expect(mebibytes(limit!)).toBeGreaterThan(mebibytes(request!));
    }
  });

  it("caps each service's V8 heap at three quarters of its memory limit, so it collects before the kernel kills it", () => {
    for (const service of services) {
      const container = workloads.find((w) => w.metadata.name === service)!.spec!.template!.spec.containers[0]!;
      const limit = container.resources!.limits!.memory!;
      expect({ service, heap: container.command![1] }).toEqual({
        service,
        heap: `--max-old-space-size=${(mebibytes(limit) * 3) / 4}`,
      });
    }
  });

  it('probes the health routes the apps serve', () => {
    for (const w of workloads.filter((x) => x.metadata.name !== 'edge')) {
      const c = w.spec!.template!.spec.containers[0]!;
      expect(c.readinessProbe?.httpGet?.path).toBe(HEALTH_READY_PATH);
      expect(c.livenessProbe?.httpGet?.path).toBe(HEALTH_LIVE_PATH);
    }
    for (const [name, s] of Object.entries(compose.services)) {
      if (s.command?.[0] === 'node')
        expect({ name, test: s.healthcheck?.test.join(' ') }).toEqual({
          name,
          test: expect.stringContaining(HEALTH_READY_PATH),
        });
    }
  });

  it('defines exactly the topics of libs/contracts, with their partitions and settings', () => {
    const file = parse(readFileSync('deploy/kafka/topics.yaml', 'utf8')) as {
      topics: { name: string; partitions: number; key: string; config: Record<string, string> }[];
    };
    expect([...file.topics].sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      allTopics
        .map((t) => ({ name: t.name, partitions: t.partitions, key: t.key, config: t.config }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  it('autoscales the replicated readers (market-data, user-stream), each HPA on an existing Deployment, and mounts the markets file where MARKETS_FILE points', () => {
    const autoscalers = resources.filter((r) => r.kind === 'HorizontalPodAutoscaler');
    expect(autoscalers.map((r) => r.metadata.name).sort()).toEqual(['market-data', 'user-stream']);
    for (const hpa of autoscalers) {
      const target = (hpa as unknown as { spec: { scaleTargetRef: { kind: string; name: string } } }).spec
        .scaleTargetRef;
      expect(resources.some((r) => r.kind === target.kind && r.metadata.name === target.name)).toBe(true);
    }
    const configMap = resources.find((r) => r.kind === 'ConfigMap' && r.metadata.name === 'exchange-config')!;
    expect(configMap.data?.MARKETS_FILE).toBe('/etc/exchange/markets.json');
    const kustomization = readFileSync(join(k8sDir, 'kustomization.yaml'), 'utf8');
    expect(kustomization).toContain('markets.json=../../config/markets.json');
    expect(kustomization).toContain('edge-routes.conf=../nginx/edge-routes.conf');
  });

  it("has the edge serve the web pages in Kubernetes and compose, from the exchange image's dist/web", () => {
    for (const conf of ['deploy/nginx/edge.docker.conf', 'deploy/k8s/edge.k8s.conf'])
      expect(readFileSync(conf, 'utf8')).toContain('include /etc/nginx/exchange/edge-pages.conf;');
    expect(readFileSync('deploy/nginx/edge-pages.conf', 'utf8')).toContain('root /srv/exchange-web;');
    expect(readFileSync(join(k8sDir, 'kustomization.yaml'), 'utf8')).toContain(
      'edge-pages.conf=../nginx/edge-pages.conf',
    );
    const edge = workloads.find((w) => w.metadata.name === 'edge')!.spec!.template!.spec as unknown as {
      initContainers: { image: string; command: string[]; volumeMounts: { mountPath: string }[] }[];
      containers: { volumeMounts: { mountPath: string }[] }[];
    };
    expect(edge.initContainers[0]!.image).toMatch(/^exchange:/);
    expect(edge.initContainers[0]!.command.join(' ')).toContain('/app/dist/web/');
    expect(edge.containers[0]!.volumeMounts.map((m) => m.mountPath)).toEqual(
      expect.arrayContaining(['/srv/exchange-web', '/etc/nginx/exchange/edge-pages.conf']),
    );
    const composeEdge = compose.services.edge as unknown as { volumes: string[] };
    expect(composeEdge.volumes).toEqual(
      expect.arrayContaining([
        'web-pages:/srv/exchange-web:ro',
        './deploy/nginx/edge-pages.conf:/etc/nginx/exchange/edge-pages.conf:ro',
      ]),
    );
    expect((compose.services['web-pages'] as unknown as { command: string[] }).command.join(' ')).toContain(
      'cp -r dist/web/.',
    );
    expect(readFileSync('Dockerfile', 'utf8')).toContain('RUN npm run build:web');
  });

  it('serves metrics on METRICS_PORT, which Prometheus scrapes and no Service exposes', () => {
    const configMap = resources.find((r) => r.kind === 'ConfigMap' && r.metadata.name === 'exchange-config')!;
    const port = Number(configMap.data?.METRICS_PORT);
    expect(port).toBeGreaterThan(0);
    expect(port).not.toBe(Number(configMap.data?.PORT));
    for (const w of workloads.filter((x) => x.metadata.name !== 'edge')) {
      const template = w.spec!.template!;
      expect({ name: w.metadata.name, ports: template.spec.containers[0]!.ports }).toEqual({
        name: w.metadata.name,
        ports: expect.arrayContaining([{ containerPort: port, name: 'metrics' }]),
      });
      expect(template.metadata?.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(port),
        'prometheus.io/path': METRICS_PATH,
      });
    }
    const services = resources.filter((r) => r.kind === 'Service') as unknown as {
      spec: { ports: { port: number }[] };
    }[];
    expect(services.flatMap((svc) => svc.spec.ports.map((p) => p.port))).not.toContain(port);
    for (const s of Object.values(compose.services).filter((x) => x.command?.[0] === 'node'))
      expect(s.environment?.METRICS_PORT).toBe(String(port));
  });

  it('forwards upgrades at the edge only to the socket paths the streams serve', () => {
    const routes = readFileSync('deploy/nginx/edge-routes.conf', 'utf8');
    const upgrading = [...routes.matchAll(/location ([^{]+)\{([^}]*)\}/g)]
      .filter((m) => /Upgrade/i.test(m[2]!))
      .map((m) => m[1]!.trim());
    expect(upgrading.sort()).toEqual([USER_STREAM_PATH, `= ${PUBLIC_STREAM_PATH}`].sort());
  });
});
