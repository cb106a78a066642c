import type { EngineCommand, BookPlaceOrder, SymbolStatus, TimeInForce } from '../engine-commands';
import type { Side } from '../order-book';
import { SeededRandom } from './seeded-random';

/**
 * A seeded stream of every kind of command, squeezed into a narrow price band and a handful of
 * owners so that crossing, partial fills, self-trade prevention, FOK look-aheads, cancels of live,
 * finished and unknown orders, duplicate ids, invalid orders and halts all happen often.
 */
export function randomCommands(seed: number, count: number): EngineCommand[] {
  const random = new SeededRandom(seed);
  const used: number[] = [];
  const commands: EngineCommand[] = [];
  let ts = 1_700_000_000_000;
  for (let i = 0; i < count; i++) {
    ts += random.int(0, 3);
    const roll = random.next();
    if (roll < 0.2 && used.length > 0) {
      commands.push({ kind: 'CancelOrder', orderId: random.chance(0.9) ? random.pick(used) : used.length + 1000, ts });
    } else if (roll < 0.21) {
      const status: SymbolStatus = random.pick(['HALT', 'BREAK', 'TRADING', 'TRADING', 'TRADING']);
      commands.push({ kind: 'SetSymbolStatus', status, ts });
    } else if (roll < 0.23 && used.length > 0) {
      commands.push({
        ...randomOrder(random, random.pick(used), ts),
        type: 'LIMIT',
        priceTicks: random.int(95, 105),
        qtyLots: 1,
        quoteBudget: undefined,
      });
    } else if (roll < 0.24) {
      commands.push({
        ...randomOrder(random, used.length + 1, ts),
        type: 'LIMIT',
        priceTicks: random.int(95, 105),
        qtyLots: 0,
        quoteBudget: undefined,
      });
    } else {
      const order = randomOrder(random, used.length + 1, ts);
      used.push(order.orderId);
      commands.push(order);
    }
  }
  return commands;
}

function randomOrder(random: SeededRandom, orderId: number, ts: number): BookPlaceOrder {
  const side: Side = random.chance(0.5) ? 'BUY' : 'SELL';
  const ownerId = random.int(1, 5);
  const kind = random.next();
  if (kind < 0.15) {
    return side === 'BUY'
      ? {
          kind: 'PlaceOrder',
          orderId,
          ownerId,
          side,
          type: 'MARKET',
          timeInForce: 'GTC',
          quoteBudget: random.int(1, 2000),
          ts,
        }
      : {
          kind: 'PlaceOrder',
          orderId,
          ownerId,
          side,
          type: 'MARKET',
          timeInForce: 'GTC',
          qtyLots: random.int(1, 15),
          ts,
        };
  }
  const priceTicks = random.int(95, 105);
  const qtyLots = random.int(1, 8);
  if (kind < 0.25)
    return {
      kind: 'PlaceOrder',
      orderId,
      ownerId,
      side,
      type: 'LIMIT_MAKER',
      timeInForce: 'GTC',
      priceTicks,
      qtyLots,
      ts,
    };
  const timeInForce: TimeInForce = random.pick(['GTC', 'GTC', 'GTC', 'GTC', 'IOC', 'FOK']);
  return { kind: 'PlaceOrder', orderId, ownerId, side, type: 'LIMIT', timeInForce, priceTicks, qtyLots, ts };
}
