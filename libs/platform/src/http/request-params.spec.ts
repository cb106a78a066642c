import { ApiError } from '../errors/api-error';
import { RequestParams } from './request-params';

function codeOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof ApiError ? error.code : undefined;
  }
  return undefined;
}

describe('RequestParams', () => {
  it('merges query and form body, the query winning', () => {
    const params = RequestParams.fromRaw(
      'symbol=BTCUSDT&side=BUY',
      'side=SELL&quantity=1.5',
      'application/x-www-form-urlencoded',
    );
    expect(params.required('symbol')).toBe('BTCUSDT');
    expect(params.required('side')).toBe('BUY');
    expect(params.required('quantity')).toBe('1.5');
  });

  it('reads JSON bodies, numbers as strings', () => {
    const params = RequestParams.fromRaw('', '{"limit":5,"symbol":"ETHBTC"}', 'application/json');
    expect(params.optionalInt('limit', 1, 1000)).toBe(5);
    expect(params.required('symbol')).toBe('ETHBTC');
  });

  it('refuses a parameter repeated inside the query or inside the body with -1101', () => {
    expect(codeOf(() => RequestParams.fromRaw('a=1&a=2', undefined, undefined))).toBe(-1101);
    expect(codeOf(() => RequestParams.fromRaw('', 'a=1&a=1', 'application/x-www-form-urlencoded'))).toBe(-1101);
    expect(codeOf(() => RequestParams.fromRaw('a=1', 'a=2', 'application/x-www-form-urlencoded'))).toBeUndefined();
  });

  it('tolerates the empty pairs of a trailing or doubled ampersand', () => {
    expect(RequestParams.fromRaw('a=1&&b=2&', undefined, undefined).required('b')).toBe('2');
  });

  it('treats an empty value as missing (-1102)', () => {
    const params = RequestParams.fromRaw('symbol=', undefined, undefined);
    expect(params.has('symbol')).toBe(false);
    expect(codeOf(() => params.required('symbol'))).toBe(-1102);
  });

  it.each(['1e3', '-5', '5.0', '', ' 5', '0x10', '99999999999999999999'])(
    'refuses %p as an integer in range',
    (raw) => {
      const params = RequestParams.fromRaw(`limit=${encodeURIComponent(raw)}`, undefined, undefined);
      if (raw === '') expect(params.optionalInt('limit', 1, 1000)).toBeUndefined();
      else expect(codeOf(() => params.optionalInt('limit', 1, 1000))).toBe(-1130);
    },
  );

  it('refuses bad percent-encoding and malformed JSON with -1100', () => {
    expect(codeOf(() => RequestParams.fromRaw('a=%E0%A4%A', undefined, undefined))).toBe(-1100);
    expect(codeOf(() => RequestParams.fromRaw('', '{"a":', 'application/json'))).toBe(-1100);
    expect(codeOf(() => RequestParams.fromRaw('', '[1,2]', 'application/json'))).toBe(-1100);
  });

  it('names the allowed values of an enum parameter in its message', () => {
    try {
      RequestParams.fromRaw('type=x', undefined, undefined).optionalEnum('type', ['token', 'options']);
      throw new Error('expected a rejection');
    } catch (error) {
      expect((error as ApiError).message).toContain("'type'");
      expect((error as ApiError).message).toContain('token, options');
    }
  });
});

describe('RequestParams text rule', () => {
  it.each(['%00', 'a%09b', 'a%0Ab', '%7F', '%C2%85', '%ED%A0%80'])(
    'refuses the value %p in any parameter with -1100',
    (encoded) => {
      expect(codeOf(() => RequestParams.fromRaw(`unknown=${encoded}`, undefined, undefined))).toBe(-1100);
    },
  );

  it('refuses a control character in a name and in a JSON body, and values past 1024 characters with -1130', () => {
    expect(codeOf(() => RequestParams.fromRaw('a%00=1', undefined, undefined))).toBe(-1100);
    expect(codeOf(() => RequestParams.fromRaw('', '{"clientOrderId":"\\u0000"}', 'application/json'))).toBe(-1100);
    expect(codeOf(() => RequestParams.fromRaw(`a=${'x'.repeat(1025)}`, undefined, undefined))).toBe(-1130);
    expect(
      RequestParams.fromRaw(`a=${'x'.repeat(1024)}&b=caf%C3%A9%20%F0%9F%98%80`, undefined, undefined).required('b'),
    ).toBe('café 😀');
  });
});
