import { createHmac } from 'node:crypto';
import { extractSignedPayload, sign, signatureMatches, splitProblem } from './signature';

const secret = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';
const hmac = (text: string): string => createHmac('sha256', secret).update(text).digest('hex');

describe('request signatures', () => {
  it('signs the query string when everything is in the query', () => {
    const query = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';
    const payload = extractSignedPayload(`${query}&signature=${hmac(query)}`, '');
    expect(payload).toEqual({ totalParams: query, query, body: '', signature: hmac(query) });
    expect(signatureMatches(secret, payload.totalParams, payload.signature!)).toBe(true);
  });

  it('signs the body when everything is in the body', () => {
    const body = 'symbol=BTCUSDT&quantity=1&timestamp=1538323200000';
    const payload = extractSignedPayload('', `${body}&signature=${hmac(body)}`);
    expect(payload.totalParams).toBe(body);
    expect(signatureMatches(secret, payload.totalParams, payload.signature!)).toBe(true);
  });

  it('signs the query immediately followed by the body, with no separator added', () => {
    const query = 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&';
    const body = 'quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';
    const payload = extractSignedPayload(query, `${body}&signature=${hmac(query + body)}`);
    expect(payload.totalParams).toBe(query + body);
    expect(signatureMatches(secret, payload.totalParams, payload.signature!)).toBe(true);
    expect(splitProblem(payload, false)).toBeUndefined();
  });

  it('accepts the signature in the query with the rest in the body', () => {
    const body = 'quantity=1&timestamp=1';
    const payload = extractSignedPayload(`signature=${hmac(body)}`, body);
    expect(payload.totalParams).toBe(body);
  });

  it("verifies ccxt's trailing-& form against the raw bytes", () => {
    const signed = 'symbol=BTCUSDT&timestamp=1538323200000&';
    const payload = extractSignedPayload(`${signed}&signature=${hmac(signed)}`, '');
    expect(payload.totalParams).toBe(signed);
    expect(signatureMatches(secret, payload.totalParams, payload.signature!)).toBe(true);
  });

  it('accepts uppercase hex', () => {
    const query = 'timestamp=1';
    expect(signatureMatches(secret, query, hmac(query).toUpperCase())).toBe(true);
  });

  it('cuts a signature that comes first, keeping what follows', () => {
    expect(extractSignedPayload(`signature=${hmac('a=1')}&a=1`, '').totalParams).toBe('a=1');
  });

  it('refuses a wrong secret, a changed byte, a short or non-hex signature', () => {
    const query = 'a=1&timestamp=2';
    expect(signatureMatches('other', query, hmac(query))).toBe(false);
    expect(signatureMatches(secret, 'a=1&timestamp=3', hmac(query))).toBe(false);
    expect(signatureMatches(secret, query, hmac(query).slice(0, 63))).toBe(false);
    expect(signatureMatches(secret, query, 'z'.repeat(64))).toBe(false);
  });

  it('does not take a parameter merely ending in "signature" for the signature', () => {
    const payload = extractSignedPayload('mysignature=1&timestamp=2', '');
    expect(payload.signature).toBeUndefined();
    expect(payload.totalParams).toBe('mysignature=1&timestamp=2');
  });

  it("matches the family's documented example", () => {
    // The Binance-family reference vector (same HMAC scheme, same totalParams rule).
    const binanceSecret = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
    const total =
      'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
    expect(sign(binanceSecret, total)).toBe('c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71');
  });

  describe('the split between query and body', () => {
    const signed = 'symbol=BTCUSDT&side=SELL&type=LIMIT&price=90000&quantity=0.1&timestamp=1538323200000';
    const signature = hmac(signed);

    it('refuses the captured order re-sent with its bytes split inside a pair, though the signature matches', () => {
      const payload = extractSignedPayload(
        'symbol=BTCUSDT&side=SELL&type=LIMIT&price=9000',
        `0&quantity=0.1&timestamp=1538323200000&signature=${signature}`,
      );
      expect(signatureMatches(secret, payload.totalParams, payload.signature!)).toBe(true);
      expect(splitProblem(payload, false)).toContain("'0' is not a name=value pair");
    });

    it('refuses a split that moves bytes between a value and the next name, and a glued boundary', () => {
      const shifted = extractSignedPayload(
        'symbol=BTCUSDT&side=SELL&type=LIMIT&price=9000',
        `0recvWindow=5000&timestamp=1&signature=${signature}`,
      );
      expect(splitProblem(shifted, false)).toContain('pair boundary');
      expect(splitProblem(extractSignedPayload('a=1', `b=2&signature=${signature}`), false)).toContain('pair boundary');
      expect(splitProblem(extractSignedPayload('a=1&price', `=9&signature=${signature}`), false)).toContain(
        "'price' is not",
      );
    });

    it("accepts every split at a pair boundary, ccxt's empty pairs, and a JSON body after a query", () => {
      for (const [query, body] of [
        ['', `${signed}&signature=${signature}`],
        [`${signed}&signature=${signature}`, ''],
        ['symbol=BTCUSDT&side=SELL&', `type=LIMIT&timestamp=1&signature=${signature}`],
        ['symbol=BTCUSDT', `&type=LIMIT&timestamp=1&signature=${signature}`],
        [`symbol=BTCUSDT&timestamp=1&&signature=${signature}`, ''],
      ] as const) {
        expect(splitProblem(extractSignedPayload(query, body), false)).toBeUndefined();
      }
      expect(
        splitProblem(extractSignedPayload(`timestamp=1&signature=${signature}`, '{"a":"1=2&3"}'), true),
      ).toBeUndefined();
    });
  });
});
