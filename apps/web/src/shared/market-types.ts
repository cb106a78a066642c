/** Shapes of the public and private API as the pages read them (README, docs/openapi.json). */
export interface SymbolFilter {
  filterType: string;
  tickSize?: string;
  stepSize?: string;
  minQty?: string;
  minNotional?: string;
}

export interface SymbolRecord {
  symbol: string;
  status: string;
  baseAsset: string;
  quoteAsset: string;
  filters: SymbolFilter[];
}

export interface BrokerInfo {
  symbols: SymbolRecord[];
}

/** The `realtimes` stream item (24 h ticker). */
export interface TickerItem {
  c: string;
  h: string;
  l: string;
  o: string;
  v: string;
  qv: string;
}

export type Level = [string, string];

export interface TradeItem {
  v: string;
  t: number;
  p: string;
  q: string;
  m: boolean;
}

export interface KlineItem {
  t: number;
  o: string;
  h: string;
  l: string;
  c: string;
  v: string;
}

export interface Order {
  orderId: string;
  clientOrderId: string;
  symbol: string;
  price: string;
  origQty: string;
  executedQty: string;
  status: string;
  type: string;
  side: string;
  time: number;
  updateTime: number;
}

export interface MyTrade {
  id: string;
  orderId: string;
  symbol: string;
  price: string;
  qty: string;
  commission: string;
  commissionAsset: string;
  time: number;
  isBuyer: boolean;
}

export interface Balance {
  asset: string;
  free: string;
  locked: string;
}

export interface FlowEntry {
  id: string;
  tokenId: string;
  flowType: string;
  change: string;
  total: string;
  created: string | number;
}

export interface WithdrawalOrder {
  orderId: string;
  tokenId: string;
  address: string;
  quantity: string;
  fee: string;
  status: number;
  statusCode: string;
  time: string;
}

export interface DepositOrder {
  orderId: string;
  token: string;
  address: string;
  quantity: string;
  time: string;
}

/** A position as GET /openapi/contract/v1/positions lists it (CONTRACTS.md). */
export interface ContractPosition {
  symbol: string;
  side: string;
  avgPrice: string;
  position: string;
  available: string;
  leverage: string;
  margin: string;
  flp: string;
  unrealizedPnL: string;
  realizedPnL: string;
}

/** A contract order as GET /openapi/contract/v1/openOrders lists it. */
export interface ContractOrder {
  orderId: string;
  clientOrderId: string;
  symbol: string;
  side: string;
  price: string;
  origQty: string;
  executedQty: string;
  leverage: string;
  status: string;
  time: number;
}

/** The contracts account's USDT as GET /openapi/contract/v1/account answers it. */
export interface ContractAccount {
  total: string;
  availableMargin: string;
  positionMargin: string;
  orderMargin: string;
}
