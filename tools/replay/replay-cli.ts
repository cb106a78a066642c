// Rebuilds a service's state from its journal: `npm run replay -- <service> [--into <schema|folder>]
// [--switch [--force]]`. Reads the same environment as the services (KAFKA_BROKERS or DATA_DIR,
// DATABASE_URL, DATABASE_SCHEMA_PREFIX, EVENT_LOG_NAMESPACE, MARKETS_FILE). Progress goes to
// stderr; the checks and the measured rate to stdout. Exit 0 when every check holds, 1 when one
// does not, 2 on a usage or runtime error.
import 'reflect-metadata';
import { Markets } from '@exchange/contracts';
import { createEventLog } from '@exchange/messaging';
import { createLogger, loadConfig } from '@exchange/platform';
import type { ReplayContext, ReplayOptions, ReplayResult, ReplayTarget } from './replay-target';
import { replayTargets } from './replay-targets';

function usage(): string {
  return [
    'usage: npm run replay -- <service> [--into <schema|folder>] [--switch [--force]]',
    ...replayTargets.map((t) => `  ${t.service.padEnd(16)} ${t.journal}`),
    'Stop an embedded exchange (npm start) first: its journal file is read directly.',
  ].join('\n');
}

function parseArguments(args: string[]): { target: ReplayTarget; options: ReplayOptions } {
  const [service, ...rest] = args;
  const target = replayTargets.find((t) => t.service === service);
  if (!target) throw new UsageError(service ? `unknown service ${service}` : 'name a service');
  const options: ReplayOptions = { switch: false, force: false };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--switch') options.switch = true;
    else if (arg === '--force') options.force = true;
    else if (arg === '--into' && rest[i + 1]) options.into = rest[++i];
    else throw new UsageError(`unknown argument ${arg}`);
  }
  if (options.switch && !target.switchTo)
    throw new UsageError(
      `${target.service} keeps its state in memory and rebuilds it on start: there is nothing to switch`,
    );
  if (options.force && !options.switch) throw new UsageError('--force only applies to --switch');
  return { target, options };
}

class UsageError extends Error {}

function report(ctx: ReplayContext, target: ReplayTarget, result: ReplayResult): boolean {
  const rate = result.seconds > 0 ? Math.round(result.events / result.seconds) : result.events;
  ctx.say(
    `${target.service}: rebuilt ${result.events} events in ${result.seconds.toFixed(1)} s (${rate} events/s) into ${result.location}`,
  );
  for (const check of result.checks) ctx.say(`  ${check.ok ? 'ok      ' : 'MISMATCH'} ${check.name}: ${check.detail}`);
  return result.checks.every((c) => c.ok);
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArguments(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${usage()}\n`);
    return 2;
  }
  const config = loadConfig(process.env, 'embedded');
  const logger = createLogger('replay', process.env.LOG_LEVEL ?? 'warn');
  const log = await createEventLog(config, logger);
  const ctx: ReplayContext = {
    config,
    log,
    markets: Markets.fromFile(config.MARKETS_FILE, { contractFundingIntervalMs: config.CONTRACT_FUNDING_INTERVAL_MS }),
    logger,
    say: (line) => process.stdout.write(`${line}\n`),
    progress: process.stderr,
  };
  try {
    const result = await parsed.target.rebuild(ctx, parsed.options);
    const matches = report(ctx, parsed.target, result);
    if (!parsed.options.switch) return matches ? 0 : 1;
    if (!matches && !parsed.options.force) {
      ctx.say(
        'not switching: the rebuilt state differs from the live one (add --force if the live copy is the damaged one)',
      );
      return 1;
    }
    ctx.say(await parsed.target.switchTo!(ctx, result));
    return matches ? 0 : 1;
  } finally {
    await log.close();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`replay failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  });
