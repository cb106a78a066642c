import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '@exchange/platform';

interface StoredSecrets {
  adminToken: string;
  secretEncryptionKey: string;
}

/**
 * The embedded default invents the operator token and the encryption key when they are not set,
 * and keeps them in DATA_DIR/secrets.json (mode 600): a restart must decrypt what it encrypted.
 */
export function withEmbeddedSecrets(config: Config): Config {
  if (config.ADMIN_TOKEN && config.SECRET_ENCRYPTION_KEY) return config;
  const path = join(config.DATA_DIR, 'secrets.json');
  let stored: StoredSecrets;
  if (existsSync(path)) {
    stored = JSON.parse(readFileSync(path, 'utf8')) as StoredSecrets;
  } else {
    stored = { adminToken: randomBytes(24).toString('hex'), secretEncryptionKey: randomBytes(32).toString('hex') };
    mkdirSync(config.DATA_DIR, { recursive: true });
    writeFileSync(path, JSON.stringify(stored, null, 2) + '\n', { mode: 0o600 });
  }
  return {
    ...config,
    ADMIN_TOKEN: config.ADMIN_TOKEN ?? stored.adminToken,
    SECRET_ENCRYPTION_KEY: config.SECRET_ENCRYPTION_KEY ?? stored.secretEncryptionKey,
  };
}
