import Decimal from 'decimal.js';
import type {
  ContractConfig,
  ContractPriceType,
  ContractSide,
  ContractTimeInForce,
  Markets,
} from '@exchange/contracts';
import { ApiError, ErrorCode, parseDecimalParam } from '@exchange/platform';
import { checkPrice, checkQuantity, CLIENT_ORDER_ID, decimalsOf } from '../orders/order-params';
import type { NewContractOrderParams } from './contract.endpoints';

export const CONTRACT_SIDES = ['BUY_OPEN', 'SELL_OPEN', 'BUY_CLOSE', 'SELL_CLOSE'] as const;
export const PRICE_TYPES = ['INPUT', 'OPPONENT', 'QUEUE', 'OVER', 'MARKET'] as const;
export const CONTRACT_TIME_IN_FORCE = ['GTC', 'IOC', 'FOK', 'LIMIT_MAKER'] as const;

export interface NewContractOrder {
  contract: ContractConfig;
  side: ContractSide;
  priceType: ContractPriceType;
  /** INPUT's price; the other price types are resolved against the book (contract-prices.ts). */
  price?: Decimal;
  /** OVER: how far beyond the best opposite price. */
  overPrice?: Decimal;
  quantity: string;
  /** OPEN orders; the ledger checks it against the risk-limit tier (-1130). */
  leverage?: string;
  timeInForce: ContractTimeInForce;
  clientOrderId: string;
  /** STOP: held off the book until the contract's last price crosses it. */
  triggerPrice?: string;
}

/** A contract symbol, else -1121: a spot symbol is not one (and spot paths refuse contract symbols). */
export function contractOf(markets: Markets, name: string): ContractConfig {
  const contract = markets.contract(name);
  if (!contract) throw new ApiError(ErrorCode.INVALID_SYMBOL, `Invalid symbol '${name}'.`);
  return contract;
}

export function optionalContract(markets: Markets, symbol: string | undefined): string | undefined {
  return symbol === undefined ? undefined : contractOf(markets, symbol).symbol;
}

/**
 * A new contract order's parameters (CONTRACTS.md, Orders): enums by their codes, decimals never
 * rounded, quantity against LOT_SIZE, an INPUT price against PRICE_FILTER, leverage on OPEN
 * orders, a client order id (required, as in the family). A STOP order needs a triggerPrice
 * (PRICE_FILTER's tick); it enters the book as the order it describes once the last price crosses it.
 */
export function parseContractOrder(params: NewContractOrderParams, markets: Markets): NewContractOrder {
  const contract = contractOf(markets, params.symbol);
  const { side, clientOrderId } = params;
  const priceType = params.priceType ?? 'INPUT';
  if (!CLIENT_ORDER_ID.test(clientOrderId))
    throw ApiError.invalid('clientOrderId', 'up to 36 letters, digits, _ - : .');
  const quantity = checkQuantity(
    parseDecimalParam('quantity', params.quantity, decimalsOf(contract.stepSize)),
    contract,
  ).toFixed();
  const opening = side === 'BUY_OPEN' || side === 'SELL_OPEN';
  const leverage = opening
    ? parseDecimalParam('leverage', params.leverage ?? missing('leverage'), 2).toFixed()
    : undefined;
  const order: NewContractOrder = {
    contract,
    side,
    priceType,
    quantity,
    timeInForce: priceType === 'MARKET' ? 'IOC' : (params.timeInForce ?? 'GTC'),
    clientOrderId,
    ...(leverage ? { leverage } : {}),
  };
  const priceDecimals = decimalsOf(contract.tickSize);
  if (priceType === 'INPUT')
    order.price = checkPrice(parseDecimalParam('price', params.price ?? missing('price'), priceDecimals), contract);
  if (priceType === 'OVER')
    order.overPrice = parseDecimalParam('overPrice', params.overPrice ?? missing('overPrice'), priceDecimals);
  if (params.orderType === 'STOP')
    order.triggerPrice = checkPrice(
      parseDecimalParam('triggerPrice', params.triggerPrice ?? missing('triggerPrice'), priceDecimals),
      contract,
    ).toFixed();
  return order;
}

function missing(name: string): never {
  throw ApiError.missing(name);
}
