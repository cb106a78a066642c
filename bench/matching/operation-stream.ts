// The benchmark's operation stream (BENCHMARKS.md, "Matching engine"), generated once from a seed
// into one Int32Array, outside any timed loop, and shared by file so every engine replays the very
// same operations.
import { readFileSync, writeFileSync } from 'node:fs';
import { type EngineEvent, MatchingEngine } from '../../libs/matching-engine/src/domain';
import { SeededRandom } from '../../libs/matching-engine/src/domain/testing/seeded-random';

export interface StreamConfig {
  seed: number;
  seedOrders: number;
  operations: number;
  midTicks: number;
}

export const defaultStreamConfig: StreamConfig = {
  seed: 20_240_601,
  seedOrders: 10_000,
  operations: 1_000_000,
  midTicks: 100_000,
};

export const OP_LIMIT = 0;
export const OP_CANCEL = 1;
export const OP_MARKET = 2;
export const SIDE_BUY = 0;
export const SIDE_SELL = 1;

/**
 * One operation per record of FIELDS int32s: kind, side, priceTicks (LIMIT), lots (LIMIT,
 * MARKET), orderId (the new order's, or the cancel's target), quoteBudget (MARKET BUY only: the
 * quote that buys exactly `lots` lots against the book at that point; see generateStream).
 */
export const FIELDS = 6;

export interface OperationStream {
  config: StreamConfig;
  /** The first config.seedOrders records pre-seed the book (not timed); the rest are timed. */
  ops: Int32Array;
  /** Resting orders, averaged over the timed operations. */
  meanBookSize: number;
}

/** The resting order ids, for drawing a uniformly random live one in O(1). */
class LiveOrders {
  readonly ids: number[] = [];
  private readonly index = new Map<number, number>();

  get size(): number {
    return this.ids.length;
  }

  add(orderId: number): void {
    this.index.set(orderId, this.ids.length);
    this.ids.push(orderId);
  }

  delete(orderId: number): void {
    const at = this.index.get(orderId)!;
    const last = this.ids.pop()!;
    if (last !== orderId) {
      this.ids[at] = last;
      this.index.set(last, at);
    }
    this.index.delete(orderId);
  }

  /** Folds one operation's events; returns the quote the taker spent. */
  follow(events: readonly EngineEvent[]): number {
    let spent = 0;
    for (const e of events) {
      if (e.type === 'OrderRested') this.add(e.orderId);
      else if (e.type === 'OrderCanceled' && e.reason === 'USER') this.delete(e.orderId);
      else if (e.type === 'TradeExecuted') {
        spent += e.priceTicks * e.qtyLots;
        if (e.makerRemainingLots === 0) this.delete(e.makerOrderId);
      }
    }
    return spent;
  }
}

/** Replays the operations on our engine while they are drawn, because the next draw depends on the book. */
class Simulator {
  readonly live = new LiveOrders();
  readonly ops: Int32Array;
  private readonly engine = new MatchingEngine();
  private count = 0;
  private lastOrderId = 0;

  constructor(total: number) {
    this.ops = new Int32Array(total * FIELDS);
  }

  limit(side: number, priceTicks: number, lots: number): void {
    const orderId = ++this.lastOrderId;
    this.record(OP_LIMIT, side, priceTicks, lots, orderId, 0);
    const command = {
      kind: 'PlaceOrder',
      orderId,
      ownerId: orderId,
      side: sideName(side),
      type: 'LIMIT',
      timeInForce: 'GTC',
      priceTicks,
      qtyLots: lots,
      ts: this.count,
    } as const;
    this.live.follow(this.engine.execute(command));
  }

  cancel(orderId: number): void {
    this.record(OP_CANCEL, 0, 0, 0, orderId, 0);
    this.live.follow(this.engine.execute({ kind: 'CancelOrder', orderId, ts: this.count }));
  }

  /**
   * A market order of `lots` lots, as the peer takes it. Our MARKET BUY is sized by quote, so the
   * stream also records the quote that buys exactly those lots here: the sweep takes whole levels
   * until the last one, so replaying that budget fills the same makers for the same lots.
   */
  market(side: number, lots: number): void {
    const orderId = ++this.lastOrderId;
    const at = this.record(OP_MARKET, side, 0, lots, orderId, 0);
    const ts = this.count;
    const command =
      side === SIDE_BUY
        ? ({
            kind: 'PlaceOrder',
            orderId,
            ownerId: orderId,
            side: 'BUY',
            type: 'LIMIT',
            timeInForce: 'IOC',
            priceTicks: Number.MAX_SAFE_INTEGER,
            qtyLots: lots,
            ts,
          } as const)
        : ({
            kind: 'PlaceOrder',
            orderId,
            ownerId: orderId,
            side: 'SELL',
            type: 'MARKET',
            timeInForce: 'GTC',
            qtyLots: lots,
            ts,
          } as const);
    const spent = this.live.follow(this.engine.execute(command));
    if (side === SIDE_BUY) {
      if (spent <= 0 || spent > 0x7fffffff)
        throw new Error(`market buy ${orderId} spent ${spent}: the book ran dry or the budget overflows int32`);
      this.ops[at + 5] = spent;
    }
  }

  private record(
    kind: number,
    side: number,
    priceTicks: number,
    lots: number,
    orderId: number,
    budget: number,
  ): number {
    const at = this.count++ * FIELDS;
    this.ops.set([kind, side, priceTicks, lots, orderId, budget], at);
    return at;
  }
}

export function sideName(side: number): 'BUY' | 'SELL' {
  return side === SIDE_BUY ? 'BUY' : 'SELL';
}

function passivePrice(random: SeededRandom, side: number, midTicks: number): number {
  const distance = 1 + Math.floor(random.exponential(8));
  return side === SIDE_BUY ? midTicks - distance : midTicks + distance;
}

/** The share of limit orders priced through the mid: a proportional controller that holds the book near 10,000 orders. */
function crossingShare(live: number): number {
  return Math.min(0.9, Math.max(0.02, (0.25 * live) / 10_000));
}

export function generateStream(config: StreamConfig = defaultStreamConfig): OperationStream {
  const random = new SeededRandom(config.seed);
  const sim = new Simulator(config.seedOrders + config.operations);
  for (let i = 0; i < config.seedOrders; i++) {
    const side = i % 2 === 0 ? SIDE_BUY : SIDE_SELL;
    sim.limit(side, passivePrice(random, side, config.midTicks), random.int(1, 10));
  }
  let liveSum = 0;
  for (let i = 0; i < config.operations; i++) {
    const roll = random.next();
    const side = random.chance(0.5) ? SIDE_BUY : SIDE_SELL;
    if (roll < 0.6) {
      const through = random.int(0, 4);
      const crossing = random.chance(crossingShare(sim.live.size));
      const priceTicks = crossing
        ? config.midTicks + (side === SIDE_BUY ? through : -through)
        : passivePrice(random, side, config.midTicks);
      sim.limit(side, priceTicks, random.int(1, 10));
    } else if (roll < 0.9 && sim.live.size > 0) {
      sim.cancel(random.pick(sim.live.ids));
    } else {
      sim.market(side, random.int(1, 20));
    }
    liveSum += sim.live.size;
  }
  return { config, ops: sim.ops, meanBookSize: liveSum / config.operations };
}

export function writeStream(path: string, stream: OperationStream): void {
  writeFileSync(path, Buffer.from(stream.ops.buffer, stream.ops.byteOffset, stream.ops.byteLength));
  writeFileSync(`${path}.json`, JSON.stringify({ config: stream.config, meanBookSize: stream.meanBookSize }));
}

export function readStream(path: string): OperationStream {
  const meta = JSON.parse(readFileSync(`${path}.json`, 'utf8')) as Omit<OperationStream, 'ops'>;
  const bytes = readFileSync(path);
  const ops = new Int32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return { ...meta, ops };
}
