import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  it('round-trips and never shows the plaintext', () => {
    const box = new SecretBox('k'.repeat(32));
    const sealed = box.encrypt('my-secret');
    expect(sealed).not.toContain('my-secret');
    expect(box.decrypt(sealed)).toBe('my-secret');
    expect(box.encrypt('my-secret')).not.toBe(sealed);
  });

  it('reads records sealed under a previous key after a rotation', () => {
    const old = new SecretBox('old-key-'.repeat(4));
    const sealed = old.encrypt('s');
    expect(new SecretBox('new-key-'.repeat(4), ['old-key-'.repeat(4)]).decrypt(sealed)).toBe('s');
    expect(() => new SecretBox('new-key-'.repeat(4)).decrypt(sealed)).toThrow(/no key/);
  });

  it('refuses a tampered ciphertext', () => {
    const box = new SecretBox('k'.repeat(32));
    const parts = box.encrypt('s').split(':');
    parts[4] = Buffer.from('x').toString('base64url');
    expect(() => box.decrypt(parts.join(':'))).toThrow();
  });
});
