import { configSchema, type Config } from './config.schema';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type RunMode = 'embedded' | 'distributed';

/**
 * Reads and validates the environment once at start, so a typo fails the process before it
 * serves anything. The distributed mode (one process per service) needs the shared broker and
 * the secrets that every replica must agree on; the embedded mode invents what it lacks.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, mode: RunMode = 'embedded'): Config {
  const defined: Record<string, string | undefined> = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const ordinal = /-(\d{1,2})$/.exec(defined.POD_NAME ?? '')?.[1];
  if (defined.INSTANCE_ID === undefined && ordinal !== undefined && Number(ordinal) < 32) defined.INSTANCE_ID = ordinal;
  const parsed = configSchema.safeParse(defined);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (mode === 'distributed') {
    const missing = (
      ['KAFKA_BROKERS', 'DATABASE_URL', 'REDIS_URL', 'ADMIN_TOKEN', 'SECRET_ENCRYPTION_KEY'] as const
    ).filter((name) => config[name] === undefined);
    if (missing.length > 0) {
      throw new ConfigError(`The distributed mode needs ${missing.join(', ')}; see README.md, Configuration.`);
    }
  }
  return config;
}
