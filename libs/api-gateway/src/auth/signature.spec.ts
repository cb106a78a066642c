import { createHmac } from 'node:crypto';
import { extractSignedPayload, sign, signatureMatches } from './signature';

const secret = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';
const hmac = (text: string): string => createHmac('sha256', secret).update(text).digest('hex');

describe('request signatures', () => {
  it('signs the query string when everything is in the query', () => {
    const query = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';
    const payload = extractSignedPayload(`${query}&signature=${hmac(query)}`, '');
    expect(payload).toEqual({ totalParams: query, signature: hmac(query) });
    expect(signatureMatches(secret, payload.totalParams, payload.signature!)).toBe(true);
  });

  it('signs the body when everything is in the body', () => {
    const body = 'symbol=BTCUSDT&quantity=1&timestamp=1538323200000';
    const payload = extractSignedPayload('', `${body}&signature=${hmac(body)}`);
    expect(payload.totalParams).toBe(body);
    expect(signatureMatches(secret, payload.totalParams, payload.signature!)).toBe(true);
  });

  it('signs the query immediately followed by the body, with no separator', () => {
    const query = 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC';
    const body = 'quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';
    const payload = extractSignedPayload(query, `${body}&signature=${hmac(query + body)}`);
    expect(payload.totalParams).toBe(query + body);
    expect(signatureMatches(secret, payload.totalParams, payload.signature!)).toBe(true);
  });

  it('accepts the signature in the query with the rest in the body', () => {
    const body = 'quantity=1&timestamp=1';
    const payload = extractSignedPayload(`signature=${hmac(body)}`, body);
    expect(payload.totalParams).toBe(body);
  });

  it('verifies ccxt\'s trailing-& form against the raw bytes', () => {
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

  it('matches the family\'s documented example', () => {
    // The Binance-family reference vector (same HMAC scheme, same totalParams rule).
    const binanceSecret = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
    const total = 'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
    expect(sign(binanceSecret, total)).toBe('c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71');
  });
});
