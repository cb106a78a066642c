/** Balance flow types of the spec (2.15) plus the ones the exchange adds, with their ids and names. */
export const FlowType = {
  TRADE: { value: 1, name: 'TRADE', label: 'Trade' },
  FEE: { value: 2, name: 'FEE', label: 'Trading fee' },
  TRANSFER: { value: 3, name: 'TRANSFER', label: 'Transfer' },
  DEPOSIT: { value: 4, name: 'DEPOSIT', label: 'Deposit' },
  PNL: { value: 28, name: 'PNL', label: 'PnL from contracts' },
  SETTLEMENT: { value: 30, name: 'SETTLEMENT', label: 'Settlement' },
  FUNDING_SETTLEMENT: { value: 32, name: 'FUNDING_SETTLEMENT', label: 'Funding fee settlement' },
  USER_ACCOUNT_TRANSFER: { value: 51, name: 'USER_ACCOUNT_TRANSFER', label: 'Transfer' },
  /** Not in the spec's list: a completed withdrawal leaving through the chain. */
  WITHDRAW: { value: 52, name: 'WITHDRAW', label: 'Withdrawal' },
} as const;

export type FlowTypeName = keyof typeof FlowType;
