import Decimal from 'decimal.js';
import type {
  ContractConfig,
  ContractPriceType,
  ContractSide,
  ContractTimeInForce,
  Markets,
} from '@exchange/contracts';
import { ApiError, ErrorCode, parseDecimalParam, type RequestParams } from '@exchange/platform';
import { checkPrice, checkQuantity, CLIENT_ORDER_ID, decimalsOf } from '../orders/order-params';

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

export function optionalContract(markets: Markets, params: RequestParams): string | undefined {
  const symbol = params.optional('symbol');
  return symbol === undefined ? undefined : contractOf(markets, symbol).symbol;
}

/**
 * A new contract order's parameters (CONTRACTS.md, Orders): enums by their codes, decimals never
 * rounded, quantity against LOT_SIZE, an INPUT price against PRICE_FILTER, leverage on OPEN
 * orders, a client order id (required, as in the family). A STOP order needs a triggerPrice
 * (PRICE_FILTER's tick); it enters the book as the order it describes once the last price crosses it.
 */
export function parseContractOrder(params: RequestParams, markets: Markets): NewContractOrder {
  const contract = contractOf(markets, params.required('symbol'));
  const side = params.optionalEnum('side', CONTRACT_SIDES, ErrorCode.INVALID_SIDE) ?? missing('side');
  const orderType =
    params.optionalEnum('orderType', ['LIMIT', 'STOP'] as const, ErrorCode.INVALID_ORDER_TYPE) ?? 'LIMIT';
  const priceType = params.optionalEnum('priceType', PRICE_TYPES) ?? 'INPUT';
  const timeInForce =
    params.optionalEnum('timeInForce', CONTRACT_TIME_IN_FORCE, ErrorCode.INVALID_TIME_IN_FORCE) ?? 'GTC';
  const clientOrderId = params.optional('clientOrderId') ?? missing('clientOrderId');
  if (!CLIENT_ORDER_ID.test(clientOrderId))
    throw ApiError.invalid('clientOrderId', 'up to 36 letters, digits, _ - : .');
  const quantity = checkQuantity(
    parseDecimalParam('quantity', params.required('quantity'), decimalsOf(contract.stepSize)),
    contract,
  ).toFixed();
  const opening = side === 'BUY_OPEN' || side === 'SELL_OPEN';
  const leverageText = params.optional('leverage');
  if (opening && leverageText === undefined) missing('leverage');
  const leverage = opening ? parseDecimalParam('leverage', leverageText!, 2).toFixed() : undefined;
  const order: NewContractOrder = {
    contract,
    side,
    priceType,
    quantity,
    timeInForce: priceType === 'MARKET' ? 'IOC' : timeInForce,
    clientOrderId,
    ...(leverage ? { leverage } : {}),
  };
  const priceDecimals = decimalsOf(contract.tickSize);
  if (priceType === 'INPUT')
    order.price = checkPrice(parseDecimalParam('price', params.required('price'), priceDecimals), contract);
  if (priceType === 'OVER')
    order.overPrice = parseDecimalParam('overPrice', params.required('overPrice'), priceDecimals);
  if (orderType === 'STOP')
    order.triggerPrice = checkPrice(
      parseDecimalParam('triggerPrice', params.required('triggerPrice'), priceDecimals),
      contract,
    ).toFixed();
  return order;
}

function missing(name: string): never {
  throw ApiError.missing(name);
}
