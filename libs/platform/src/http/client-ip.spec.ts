import type { IncomingMessage } from 'node:http';
import { ClientIpResolver } from './client-ip';

const request = (remoteAddress: string, forwardedFor?: string): IncomingMessage =>
  ({
    socket: { remoteAddress },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  }) as unknown as IncomingMessage;

describe('the client address of an upgrade', () => {
  const resolver = new ClientIpResolver('127.0.0.0/8,::1/128,10.0.0.0/8');

  it('is the peer when the peer is not a trusted proxy, whatever it forwards', () => {
    expect(resolver.clientIp(request('203.0.113.9', '198.51.100.1'))).toBe('203.0.113.9');
  });

  it('is the last untrusted hop of X-Forwarded-For behind trusted proxies', () => {
    expect(resolver.clientIp(request('10.1.2.3', '198.51.100.1, 203.0.113.7, 10.9.9.9'))).toBe('203.0.113.7');
    expect(resolver.clientIp(request('::ffff:127.0.0.1', '203.0.113.8'))).toBe('203.0.113.8');
    expect(resolver.clientIp(request('::1', '2001:db8::1'))).toBe('2001:db8::1');
  });

  it('is the proxy itself when it forwards nothing', () => {
    expect(resolver.clientIp(request('10.1.2.3'))).toBe('10.1.2.3');
  });
});
