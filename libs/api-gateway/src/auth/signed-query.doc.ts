/** The parameters every signed endpoint takes, for the OpenAPI document. */
export const signedQueryDoc = [
  {
    name: 'timestamp',
    required: true,
    description: 'ms since the epoch; within recvWindow of the server clock',
    type: 'integer' as const,
  },
  { name: 'recvWindow', description: 'ms, default 5000, at most 60000', type: 'integer' as const },
  {
    name: 'signature',
    required: true,
    description: 'hex HMAC-SHA256 of the raw query string followed by the raw body, this pair cut out',
  },
];

/** The same for the userDataStream endpoints, which verify a signature only when one is sent (API-DECISIONS.md). */
export const stampQueryDoc = [
  {
    name: 'timestamp',
    required: true,
    description: 'ms since the epoch; within recvWindow of the server clock',
    type: 'integer' as const,
  },
  { name: 'recvWindow', description: 'ms, default 5000, at most 60000', type: 'integer' as const },
  {
    name: 'signature',
    description: 'optional here; verified when sent (hex HMAC-SHA256 of the raw query string followed by the raw body)',
  },
];
