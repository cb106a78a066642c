import type { BookPlaceOrder } from './engine-commands';

function isPositiveSafeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/**
 * Whether a BookPlaceOrder is well formed for the engine. The gateway has already applied the
 * symbol's filters; this guards the engine's own arithmetic (safe integers only, so every
 * product it forms stays exact) and the combination of fields each order type needs, so a
 * malformed command becomes an INVALID_ORDER rejection instead of a corrupted book.
 */
export function isWellFormedOrder(command: BookPlaceOrder): boolean {
  if (!isPositiveSafeInteger(command.orderId) || !isPositiveSafeInteger(command.ownerId)) return false;
  if (!Number.isSafeInteger(command.ts)) return false;
  if (command.side !== 'BUY' && command.side !== 'SELL') return false;
  if (command.timeInForce !== 'GTC' && command.timeInForce !== 'IOC' && command.timeInForce !== 'FOK') return false;
  switch (command.type) {
    case 'LIMIT':
    case 'LIMIT_MAKER':
      return (
        isPositiveSafeInteger(command.priceTicks) &&
        isPositiveSafeInteger(command.qtyLots) &&
        command.quoteBudget === undefined
      );
    case 'MARKET':
      if (command.priceTicks !== undefined) return false;
      return command.side === 'BUY'
        ? isPositiveSafeInteger(command.quoteBudget) && command.qtyLots === undefined
        : isPositiveSafeInteger(command.qtyLots) && command.quoteBudget === undefined;
    default:
      return isUnknownOrderType(command.type);
  }
}

/** Commands come from a topic, so a type outside the union is possible at run time and is simply invalid. */
function isUnknownOrderType(type: never): false {
  void type;
  return false;
}
