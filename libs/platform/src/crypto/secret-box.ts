import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Encrypts API secrets wherever they persist (topics, tables): AES-256-GCM under a key derived
 * from SECRET_ENCRYPTION_KEY. Each ciphertext names its key, so after a rotation old records
 * stay readable as long as the old key is listed in SECRET_ENCRYPTION_PREVIOUS_KEYS.
 */
export class SecretBox {
  private readonly current: { id: string; key: Buffer };
  private readonly keys = new Map<string, Buffer>();

  constructor(currentSecret: string, previousSecrets: readonly string[] = []) {
    this.current = derive(currentSecret);
    for (const secret of [currentSecret, ...previousSecrets]) {
      const { id, key } = derive(secret);
      this.keys.set(id, key);
    }
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      'v1',
      this.current.id,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      data.toString('base64url'),
    ].join(':');
  }

  decrypt(ciphertext: string): string {
    const [version, keyId, iv, tag, data] = ciphertext.split(':');
    if (version !== 'v1' || !keyId || !iv || !tag || data === undefined)
      throw new Error('secret box: not a v1 ciphertext');
    const key = this.keys.get(keyId);
    if (!key)
      throw new Error(`secret box: no key ${keyId} (was SECRET_ENCRYPTION_KEY rotated without listing the old one?)`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

function derive(secret: string): { id: string; key: Buffer } {
  const key = createHash('sha256').update(`exchange/secret-box/v1/${secret}`).digest();
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
}
