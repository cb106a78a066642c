import type { AssetWalletConfig, WalletEvent } from '@exchange/contracts';

export interface WalletContext {
  now: number;
  /** A new deposit id, derived from the command's log position so a rebuild reproduces it. */
  newId(): string;
  /** The asset's wallet settings (the markets file); the gateway checked the asset exists. */
  settings(asset: string): AssetWalletConfig;
}

/** An event before the envelope fields decide() adds: id, ts, userId, commandId. */
export type WalletDraft = {
  [K in WalletEvent['type']]: {
    type: K;
    payload: Omit<Extract<WalletEvent, { type: K }>['payload'], 'userId' | 'commandId'>;
  };
}[WalletEvent['type']];
