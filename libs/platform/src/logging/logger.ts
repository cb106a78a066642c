import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/** JSON lines on stdout; secrets are redacted by path so a careless log call cannot leak them. */
export function createLogger(service: string, level: string = 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.epochTime,
    redact: {
      paths: [
        'secretKey',
        '*.secretKey',
        'headers["x-service-key"]',
        'req.headers.authorization',
        'signature',
        '*.signature',
      ],
      censor: '[redacted]',
    },
  });
}
