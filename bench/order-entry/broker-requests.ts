// What the services ask the broker, by API: the broker's own request counters (JMX
// kafka.network:type=RequestMetrics,name=RequestsPerSec,request=<api>,version=<v>, attribute
// Count), read before and after a stretch of load. Counted at the broker, they include every
// client of every service (consumers, transactional and plain producers, admins) whatever its
// library does internally. Opt-in with BENCH_KAFKA_JMX_PORT: the broker of tools/kafka/start-broker.sh
// runs without JMX, so the bench starts its management agent on that port with jcmd (JDK) and reads
// it with Kafka's JmxTool from the broker's lib/ (a JVM started per reading, between runs only).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Left out: the broker's inter-node and controller requests (not the services'), and FetchConsumer
 * and FetchFollower, which are the Fetch requests again split by who sent them.
 */
const NOT_COUNTED = new Set([
  'BrokerHeartbeat',
  'BrokerRegistration',
  'Vote',
  'BeginQuorumEpoch',
  'FetchConsumer',
  'FetchFollower',
]);

export interface BrokerRequestCounter {
  /** Requests so far by API name. */
  read(): Map<string, number>;
}

/** A counter for the broker at `brokers`, or undefined when BENCH_KAFKA_JMX_PORT is unset. */
export function brokerRequestCounter(brokers: string): BrokerRequestCounter | undefined {
  const jmxPort = process.env.BENCH_KAFKA_JMX_PORT;
  if (!jmxPort) return undefined;
  const port = brokers.split(',')[0]?.split(':')[1];
  const home = process.env.KAFKA_HOME_DIR ?? `${process.env.TMPDIR ?? '/tmp'}/exchange-kafka-${port}`;
  const pid = readFileSync(`${home}/broker.pid`, 'utf8').trim();
  try {
    execFileSync(
      'jcmd',
      [
        pid,
        'ManagementAgent.start',
        `jmxremote.port=${jmxPort}`,
        `jmxremote.rmi.port=${jmxPort}`,
        'jmxremote.authenticate=false',
        'jmxremote.ssl=false',
        'jmxremote.host=127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
  } catch {
    // Already started by an earlier run on this broker.
  }
  const url = `service:jmx:rmi:///jndi/rmi://127.0.0.1:${jmxPort}/jmxrmi`;
  return {
    read: () => {
      const out = execFileSync(
        'java',
        [
          '-Xmx64m',
          '-XX:TieredStopAtLevel=1',
          '-cp',
          `${home}/lib/*`,
          'org.apache.kafka.tools.JmxTool',
          '--jmx-url',
          url,
          '--object-name',
          'kafka.network:type=RequestMetrics,name=RequestsPerSec,request=*,version=*',
          '--attributes',
          'Count',
          '--one-time',
          'true',
          '--report-format',
          'properties',
        ],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
      );
      const counts = new Map<string, number>();
      for (const match of out.matchAll(/request=([A-Za-z]+),version=\d+:Count=(\d+)/g)) {
        const api = match[1]!;
        if (!NOT_COUNTED.has(api)) counts.set(api, (counts.get(api) ?? 0) + Number(match[2]));
      }
      return counts;
    },
  };
}

/** "Fetch 5.60, OffsetCommit 1.50, …": requests per order between two readings, most first. */
export function formatRequestsPerOrder(
  before: Map<string, number>,
  after: Map<string, number>,
  orders: number,
): string {
  const rows = [...after]
    .map(([api, count]) => [api, (count - (before.get(api) ?? 0)) / orders] as const)
    .filter(([, perOrder]) => perOrder > 0)
    .sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, perOrder]) => sum + perOrder, 0);
  return `${total.toFixed(2)}: ${rows.map(([api, perOrder]) => `${api} ${perOrder.toFixed(2)}`).join(', ')}`;
}

/**
 * An idle exchange creates no topic and joins, leaves or deletes no group: its services make their
 * topics and groups at start and leave them at stop. Such requests while it idles come from another
 * client of the same broker (the counters are the broker's, whoever asked) or from a member that
 * rejoined, and the idle figures include them.
 */
const NOT_FROM_AN_IDLE_EXCHANGE = ['CreateTopics', 'DeleteTopics', 'JoinGroup', 'LeaveGroup', 'DeleteGroups'];

/** What an idle exchange does not ask for, counted between two readings; undefined when none. */
export function requestsNotFromAnIdleExchange(
  before: Map<string, number>,
  after: Map<string, number>,
): string | undefined {
  const seen = NOT_FROM_AN_IDLE_EXCHANGE.map((api) => [api, (after.get(api) ?? 0) - (before.get(api) ?? 0)] as const)
    .filter(([, count]) => count > 0)
    .map(([api, count]) => `${api} ${count}`);
  return seen.length === 0 ? undefined : seen.join(', ');
}
