import { z } from 'zod';
import { ApiError, ErrorCode, RequestParams } from '@exchange/platform';
import { param, paramsDoc, parseParams } from './endpoint-params';

const declared = z.object({
  symbol: param.text('e.g. BTCUSDT'),
  side: param.oneOf(['BUY', 'SELL'], 'BUY or SELL', ErrorCode.INVALID_SIDE),
  limit: param.int('default 500', 1, 1000).optional(),
  note: param.text('free text').optional(),
});

const query = (text: string): RequestParams => RequestParams.fromRaw(text, undefined, undefined);

function refusal(text: string): { code: number; msg: string } {
  try {
    parseParams(declared, query(text));
  } catch (error) {
    if (error instanceof ApiError) return error.toBody();
    throw error;
  }
  throw new Error(`${text} was accepted`);
}

/** The answers RequestParams' own helpers give, for the same text. */
function helperRefusal(read: (p: RequestParams) => unknown, text: string): { code: number; msg: string } {
  try {
    read(query(text));
  } catch (error) {
    if (error instanceof ApiError) return error.toBody();
    throw error;
  }
  throw new Error(`${text} was accepted`);
}

describe('declared endpoint parameters', () => {
  it('parses the declared parameters, typed, and leaves the undeclared out', () => {
    expect(parseParams(declared, query('symbol=BTCUSDT&side=SELL&limit=20&other=1'))).toEqual({
      symbol: 'BTCUSDT',
      side: 'SELL',
      limit: 20,
    });
  });

  it('takes an empty value for an absent one', () => {
    expect(parseParams(declared, query('symbol=BTCUSDT&side=BUY&limit=&note='))).toEqual({
      symbol: 'BTCUSDT',
      side: 'BUY',
    });
    expect(refusal('symbol=&side=BUY')).toEqual(ApiError.missing('symbol').toBody());
  });

  it('answers as RequestParams does: missing, an enum with its own code, integers by the same rule', () => {
    expect(refusal('side=BUY')).toEqual(helperRefusal((p) => p.required('symbol'), ''));
    expect(refusal('symbol=X&side=HOLD')).toEqual(
      helperRefusal((p) => p.optionalEnum('side', ['BUY', 'SELL'], ErrorCode.INVALID_SIDE), 'side=HOLD'),
    );
    expect(refusal('symbol=X&side=HOLD').code).toBe(ErrorCode.INVALID_SIDE);
    for (const limit of ['1e3', '2.5', '0', '1001', '99999999999999999']) {
      expect(refusal(`symbol=X&side=BUY&limit=${limit}`)).toEqual(
        helperRefusal((p) => p.optionalInt('limit', 1, 1000), `limit=${limit}`),
      );
    }
  });

  it('refuses the first wrong parameter in declaration order', () => {
    expect(refusal('side=HOLD&limit=0')).toEqual(ApiError.missing('symbol').toBody());
    expect(refusal('symbol=X&side=HOLD&limit=0').code).toBe(ErrorCode.INVALID_SIDE);
  });

  it('documents them in declaration order: required, enums and integers', () => {
    expect(paramsDoc(declared)).toEqual([
      { name: 'symbol', required: true, description: 'e.g. BTCUSDT' },
      { name: 'side', required: true, description: 'BUY or SELL', enum: ['BUY', 'SELL'] },
      { name: 'limit', description: 'default 500', type: 'integer' },
      { name: 'note', description: 'free text' },
    ]);
  });
});
