import { generatedClientOrderId } from './client-order-ids';

describe('generatedClientOrderId', () => {
  it('gives x- and 12 base64url chars, never the same id twice across several fills of its pool', () => {
    const ids = Array.from({ length: 2_000 }, () => generatedClientOrderId());
    for (const id of ids) expect(id).toMatch(/^x-[A-Za-z0-9_-]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
