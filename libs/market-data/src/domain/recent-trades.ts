/** A public trade as the fold keeps it: exact integers, formatted once when it happens. */
export interface PublicTrade {
  tradeId: number;
  /** Event time (ms). */
  time: number;
  price: bigint;
  qty: bigint;
  isBuyerMaker: boolean;
}

/** The newest `capacity` trades of a symbol, oldest first. */
export class RecentTrades {
  private readonly trades: PublicTrade[] = [];

  constructor(readonly capacity: number) {}

  add(trade: PublicTrade): void {
    this.trades.push(trade);
    // Trim in chunks: one splice per `capacity / 4` trades instead of a shift per trade.
    if (this.trades.length > this.capacity + (this.capacity >> 2))
      this.trades.splice(0, this.trades.length - this.capacity);
  }

  /** The newest `limit` trades, oldest first. */
  last(limit: number): PublicTrade[] {
    const from = Math.max(0, this.trades.length - Math.min(limit, this.capacity));
    return this.trades.slice(from);
  }

  get lastTradeId(): number {
    return this.trades[this.trades.length - 1]?.tradeId ?? 0;
  }
}
