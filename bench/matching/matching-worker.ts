// One engine's measurement, run in its own pinned process by matching.bench.ts.
// Usage: matching-worker.ts <ours|peer> <stream file> <warm-up operations>
// Prints one JSON line (WorkerResult) as its last stdout line.
import { createHash } from 'node:crypto';
import { OrderBook as PeerBook, Side as PeerSide } from 'nodejs-order-book';
import { type DepthLevel, type EngineEvent, MatchingEngine } from '../../libs/matching-engine/src/domain';
import { percentile } from '../support/stats';
import { FIELDS, OP_CANCEL, OP_LIMIT, OP_MARKET, type OperationStream, readStream, SIDE_BUY } from './operation-stream';

export type Subject = 'ours' | 'peer';

export interface WorkerResult {
  subject: Subject;
  opsPerSec: number;
  p50Ns: number;
  p99Ns: number;
  p999Ns: number;
  /** Resting orders after the stream, and a digest of the final L2 book: both engines must agree. */
  restingAtEnd: number;
  finalBookDigest: string;
}

/** What the timed loops drive: one operation record at a time, on a fresh book per pass. */
interface Engine {
  reset(): void;
  apply(ops: Int32Array, at: number, ts: number): void;
  restingOrders(): number;
  depth(): { bids: DepthLevel[]; asks: DepthLevel[] };
}

class Ours implements Engine {
  private engine = new MatchingEngine();
  /** Events land here and are dropped: publishing them is the service's cost, not the book's. */
  private readonly out: EngineEvent[] = [];

  reset(): void {
    this.engine = new MatchingEngine();
  }

  apply(ops: Int32Array, at: number, ts: number): void {
    const orderId = ops[at + 4]!;
    const side = ops[at + 1] === SIDE_BUY ? 'BUY' : 'SELL';
    switch (ops[at]) {
      case OP_LIMIT:
        this.engine.execute(
          {
            kind: 'PlaceOrder',
            orderId,
            ownerId: orderId,
            side,
            type: 'LIMIT',
            timeInForce: 'GTC',
            priceTicks: ops[at + 2]!,
            qtyLots: ops[at + 3]!,
            ts,
          },
          this.out,
        );
        break;
      case OP_CANCEL:
        this.engine.execute({ kind: 'CancelOrder', orderId, ts }, this.out);
        break;
      case OP_MARKET:
        if (side === 'BUY')
          this.engine.execute(
            {
              kind: 'PlaceOrder',
              orderId,
              ownerId: orderId,
              side,
              type: 'MARKET',
              timeInForce: 'GTC',
              quoteBudget: ops[at + 5]!,
              ts,
            },
            this.out,
          );
        else
          this.engine.execute(
            {
              kind: 'PlaceOrder',
              orderId,
              ownerId: orderId,
              side,
              type: 'MARKET',
              timeInForce: 'GTC',
              qtyLots: ops[at + 3]!,
              ts,
            },
            this.out,
          );
        break;
    }
    this.out.length = 0;
  }

  restingOrders(): number {
    return this.engine.orderCount;
  }

  depth(): { bids: DepthLevel[]; asks: DepthLevel[] } {
    return this.engine.depth();
  }
}

class Peer implements Engine {
  private book = new PeerBook();
  /** The peer keys orders by string; the strings are made before timing so it is not charged for them. */
  private readonly ids: string[];

  constructor(ops: Int32Array) {
    this.ids = [];
    for (let at = 0; at < ops.length; at += FIELDS) this.ids[ops[at + 4]!] = String(ops[at + 4]!);
  }

  reset(): void {
    this.book = new PeerBook();
  }

  apply(ops: Int32Array, at: number): void {
    const side = ops[at + 1] === SIDE_BUY ? PeerSide.BUY : PeerSide.SELL;
    switch (ops[at]) {
      case OP_LIMIT:
        this.book.limit({ id: this.ids[ops[at + 4]!]!, side, size: ops[at + 3]!, price: ops[at + 2]! });
        break;
      case OP_CANCEL:
        this.book.cancel(this.ids[ops[at + 4]!]!);
        break;
      case OP_MARKET:
        this.book.market({ side, size: ops[at + 3]! });
        break;
    }
  }

  restingOrders(): number {
    return this.book
      .snapshot()
      .bids.concat(this.book.snapshot().asks)
      .reduce((n, level) => n + level.orders.length, 0);
  }

  depth(): { bids: DepthLevel[]; asks: DepthLevel[] } {
    const [asks, bids] = this.book.depth();
    return { bids: [...bids].sort((a, b) => b[0] - a[0]), asks: [...asks].sort((a, b) => a[0] - b[0]) };
  }
}

function seedBook(engine: Engine, stream: OperationStream): void {
  engine.reset();
  for (let i = 0; i < stream.config.seedOrders; i++) engine.apply(stream.ops, i * FIELDS, i);
}

/** ops/s over the timed operations, with no clock read inside the loop. */
function throughputPass(engine: Engine, stream: OperationStream, count: number): number {
  seedBook(engine, stream);
  const first = stream.config.seedOrders;
  const ops = stream.ops;
  const start = process.hrtime.bigint();
  for (let i = first; i < first + count; i++) engine.apply(ops, i * FIELDS, i);
  const elapsedNs = Number(process.hrtime.bigint() - start);
  return count / (elapsedNs / 1e9);
}

/** Per-operation latency in ns, one clock read either side of each operation. */
function latencyPass(engine: Engine, stream: OperationStream, count: number): Float64Array {
  seedBook(engine, stream);
  const first = stream.config.seedOrders;
  const ops = stream.ops;
  const latencies = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    engine.apply(ops, (first + i) * FIELDS, first + i);
    latencies[i] = Number(process.hrtime.bigint() - start);
  }
  return latencies;
}

function digest(engine: Engine): string {
  return createHash('sha256').update(JSON.stringify(engine.depth())).digest('hex').slice(0, 16);
}

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function main(): void {
  const [subject, file, warmup] = process.argv.slice(2) as [Subject, string, string];
  const stream = readStream(file);
  const engine: Engine = subject === 'ours' ? new Ours() : new Peer(stream.ops);
  const count = stream.config.operations;
  const warmupCount = Math.min(count, Number(warmup));
  throughputPass(engine, stream, warmupCount);
  latencyPass(engine, stream, warmupCount);

  collectGarbage();
  const opsPerSec = throughputPass(engine, stream, count);
  const afterThroughput = digest(engine);
  collectGarbage();
  const latencies = Array.from(latencyPass(engine, stream, count).sort());
  const finalBookDigest = digest(engine);
  if (finalBookDigest !== afterThroughput)
    throw new Error('the two passes ended with different books: the engine is not deterministic');
  const result: WorkerResult = {
    subject,
    opsPerSec,
    p50Ns: percentile(latencies, 50),
    p99Ns: percentile(latencies, 99),
    p999Ns: percentile(latencies, 99.9),
    restingAtEnd: engine.restingOrders(),
    finalBookDigest,
  };
  console.log(JSON.stringify(result));
}

main();
