import { randomFillSync } from 'node:crypto';

const ID_BYTES = 9;
/** Ids served per fill of the pool: one getrandom call per this many orders, not one per order. */
const IDS_PER_FILL = 256;
const pool = Buffer.alloc(ID_BYTES * IDS_PER_FILL);
let taken = pool.length;

/**
 * The client order id of an order sent without one: `x-` and 72 random bits as 12 base64url chars.
 * The bits come from a pool filled by the CSPRNG, as `randomBytes` would give them: on this path
 * a call per order cost about 1% of the gateway's CPU per order (issue 16's profile).
 */
export function generatedClientOrderId(): string {
  if (taken === pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  const id = `x-${pool.toString('base64url', taken, taken + ID_BYTES)}`;
  taken += ID_BYTES;
  return id;
}
