import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * The client address of a request that Fastify never sees (a WebSocket upgrade), chosen as
 * Fastify's `trustProxy` chooses `request.ip`: walk `X-Forwarded-For` from the right while the
 * hop is a trusted proxy, so the per-IP bounds of the sockets match the HTTP side's.
 */
export class ClientIpResolver {
  private readonly trusted = new BlockList();

  /** `trustedProxies`: comma-separated addresses or CIDRs (TRUSTED_PROXIES). */
  constructor(trustedProxies: string) {
    for (const entry of trustedProxies
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '')) {
      const [address = '', prefix] = entry.split('/');
      const type = isIPv6(address) ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.trusted.addAddress(address, type);
      else this.trusted.addSubnet(address, Number(prefix), type);
    }
  }

  clientIp(request: IncomingMessage): string {
    let address = plain(request.socket.remoteAddress ?? '');
    const forwarded = (request.headers['x-forwarded-for'] ?? '')
      .toString()
      .split(',')
      .map((a) => plain(a.trim()));
    while (this.isTrusted(address) && forwarded.length > 0) {
      const hop = forwarded.pop()!;
      if (hop === '') break;
      address = hop;
    }
    return address;
  }

  private isTrusted(address: string): boolean {
    if (isIPv4(address)) return this.trusted.check(address, 'ipv4');
    if (isIPv6(address)) return this.trusted.check(address, 'ipv6');
    return false;
  }
}

/** IPv4 clients of a dual-stack listener appear as `::ffff:a.b.c.d`. */
function plain(address: string): string {
  return address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
}
