import { z } from 'zod';
import { symbolStatusSchema } from '../markets/markets.schema';

/**
 * Field types shared by the order families (commands, engine events, settlement commands). Ids
 * are strings of positive integers (they cross JSON and JavaScript, where only 2^53 is safe);
 * amounts are plain decimal strings, never numbers, and are never rounded on the wire.
 */
export const orderIdField = z.string().regex(/^[1-9]\d{0,15}$/, 'a positive integer id as a string');
/**
 * A book's symbol: a spot symbol (BTCUSDT) or a contract symbol (BTC-SWAP-USDT, upper-case words
 * joined by hyphens). Widened from `^[A-Z0-9]{4,20}$` in place rather than by new versions of every
 * order message: every record valid before stays valid (journals read as before), and a contract
 * symbol only reaches a topic from a markets file that configures it, read by this code.
 */
export const symbolField = z
  .string()
  .min(4)
  .max(30)
  .regex(/^[A-Z0-9]+(-[A-Z0-9]+)*$/);
/** A plain non-negative decimal string ("0" allowed: events report emptied remainders). */
export const decimalField = z
  .string()
  .max(40)
  .regex(/^(0|[1-9]\d*)(\.\d+)?$/, 'a plain decimal string');
export const sideField = z.enum(['BUY', 'SELL']);
export const orderTypeField = z.enum(['LIMIT', 'MARKET', 'LIMIT_MAKER']);
export const timeInForceField = z.enum(['GTC', 'IOC', 'FOK']);
export const symbolStatusField = symbolStatusSchema;

export type OrderSide = z.infer<typeof sideField>;
export type OrderKind = z.infer<typeof orderTypeField>;
export type OrderTimeInForce = z.infer<typeof timeInForceField>;

export { messageV1, messageV2 } from '../envelope/message';
