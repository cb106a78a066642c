import { ConfigError, loadConfig } from './load-config';

describe('loadConfig', () => {
  it('fills the embedded defaults from an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 8080,
      DATA_DIR: './data',
      EVENT_LOG_FSYNC: 'always',
      RATE_LIMIT_WEIGHT_PER_MINUTE: 1200,
    });
    expect(config.KAFKA_BROKERS).toBeUndefined();
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ EVENT_LOG_FSYNC: 'sometimes' })).toThrow(ConfigError);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ KAFKA_BROKERS: '' }).KAFKA_BROKERS).toBeUndefined();
  });

  it('takes INSTANCE_ID from a StatefulSet pod name when it is not set', () => {
    expect(loadConfig({ POD_NAME: 'api-gateway-3' }).INSTANCE_ID).toBe(3);
    expect(loadConfig({ POD_NAME: 'api-gateway-3', INSTANCE_ID: '5' }).INSTANCE_ID).toBe(5);
    expect(loadConfig({ POD_NAME: 'ledger-7d9f8-x2k4p' }).INSTANCE_ID).toBe(0);
  });

  it('requires the shared services and secrets in the distributed mode', () => {
    expect(() => loadConfig({ KAFKA_BROKERS: 'k:9092' }, 'distributed')).toThrow(
      /DATABASE_URL, REDIS_URL, ADMIN_TOKEN, SECRET_ENCRYPTION_KEY/,
    );
  });
});
