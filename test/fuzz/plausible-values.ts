import fc from 'fast-check';
import type { EndpointParam } from './openapi-endpoints';

/** What the running exchange holds, so a plausible request names things that exist. */
export interface FuzzWorld {
  symbols: string[];
  assets: string[];
  accountId: string;
  userId: string;
  listenKey: string;
}

const alnum = (min: number, max: number) =>
  fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'),
    minLength: min,
    maxLength: max,
  });
const smallInt = (max: number) => fc.integer({ min: 0, max }).map(String);

/**
 * A value that could pass for the parameter, chosen by its documented enum and type and, for
 * strings, by what its name says it holds. Names this does not know get plain short text, so an
 * endpoint added later is still called with something.
 */
export function plausibleValue(
  param: Pick<EndpointParam, 'name' | 'type' | 'enum'>,
  world: FuzzWorld,
  path: string,
): fc.Arbitrary<string> {
  if (param.enum && param.enum.length > 0) return fc.constantFrom(...param.enum);
  const name = param.name.toLowerCase();
  if (name === 'listenkey') return fc.constant(world.listenKey);
  if (name === 'symbol')
    return path.startsWith('/api/v2')
      ? fc.constantFrom(...world.symbols.map(v2Pair))
      : fc.constantFrom(...world.symbols);
  if (name === 'interval') return fc.constantFrom('1m', '5m', '1h', '1d', '1w', '1M');
  if (/token|asset/.test(name)) return fc.constantFrom(...world.assets);
  if (/price/.test(name)) return fc.constantFrom('100', '250.5', '20000', '31000.01');
  if (/quantity|amount|qty/.test(name)) return fc.constantFrom('0.01', '0.5', '1', '12.5');
  if (/clientorderid/.test(name)) return alnum(1, 20);
  if (name === 'accountid') return fc.constant(world.accountId);
  if (name === 'userid') return fc.constant(world.userId);
  if (name === 'accounttype') return fc.constantFrom('1', '2', '3');
  if (/time$/.test(name)) return fc.integer({ min: -86_400_000, max: 0 }).map((d) => String(Date.now() + d));
  if (name === 'limit') return smallInt(100).map((v) => String(Number(v) + 1));
  if (/index$/.test(name)) return smallInt(2);
  if (/id$/.test(name)) return fc.integer({ min: 1, max: 1_000_000 }).map(String);
  if (name === 'address') return alnum(20, 42);
  if (name === 'chaintype') return fc.constantFrom('OMNI', 'ERC20', 'TRC20');
  if (param.type === 'integer' || param.type === 'number') return smallInt(1000);
  return alnum(1, 12);
}

const v2Pair = (symbol: string): string => symbol.replace(/(USDT|BTC|ETH)$/, '-$1').toLowerCase();
