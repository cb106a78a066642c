import { Writable } from 'node:stream';
import type { Infrastructure } from '@exchange/bootstrap';
import type { Check, ReplayContext } from '../../tools/replay/replay-target';

/** A replay CLI context over a test exchange's configuration and event log; what it says is kept in `lines`. */
export function replayContextOf(infrastructure: Infrastructure): { ctx: ReplayContext; lines: string[] } {
  const lines: string[] = [];
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() }) as unknown as NodeJS.WriteStream;
  const { config, eventLog: log, markets, logger } = infrastructure;
  return { ctx: { config, log, markets, logger, say: (line) => void lines.push(line), progress: silent }, lines };
}

/** The check named `name`, which every rebuild must report. */
export function checkNamed(checks: readonly Check[], name: string): Check {
  const check = checks.find((c) => c.name === name);
  if (!check) throw new Error(`no check named ${name} among ${checks.map((c) => c.name).join(', ')}`);
  return check;
}
