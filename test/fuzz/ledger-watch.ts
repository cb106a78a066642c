import { Topics } from '@exchange/contracts';
import type { EventLog } from '@exchange/messaging';
import { Client } from 'pg';
import { waitFor } from '../support/wait-for';

const STAGES = [
  { group: 'ledger', topic: Topics.ledgerCommands.name },
  { group: 'matching-engine', topic: Topics.orderCommands.name },
  { group: 'wallet', topic: Topics.walletCommands.name },
];

/**
 * Reads every balance straight from the ledger's table, and knows when the pipeline is quiet
 * (every command consumed by the ledger, the engine and the wallet, their outboxes empty), so a
 * snapshot taken then cannot be moved by work still in flight.
 */
export class LedgerWatch {
  private constructor(
    private readonly db: Client,
    private readonly prefix: string,
    private readonly log: EventLog,
  ) {}

  static async open(databaseUrl: string, prefix: string, log: EventLog): Promise<LedgerWatch> {
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    return new LedgerWatch(db, prefix, log);
  }

  /** Every account's balances, as text: equal snapshots mean no balance moved. */
  async snapshot(): Promise<string> {
    const { rows } = await this.db.query<{ a: string; s: string; f: string; l: string }>(
      `SELECT account_id::text AS a, asset AS s, free::text AS f, locked::text AS l FROM "${this.prefix}ledger".balances ORDER BY 1, 2`,
    );
    return rows.map((r) => `${r.a}/${r.s}/${r.f}/${r.l}`).join(' ');
  }

  async settle(timeoutMs = 20_000): Promise<void> {
    let last = '';
    await waitFor(
      async () => {
        const progress = await this.progress();
        const quiet = progress.quiet && progress.text === last;
        last = progress.text;
        return quiet;
      },
      'the ledger, the engine and the wallet to settle',
      timeoutMs,
      20,
    );
  }

  private async progress(): Promise<{ quiet: boolean; text: string }> {
    let quiet = true;
    const parts: string[] = [];
    for (const { group, topic } of STAGES) {
      const [ends, committed] = await Promise.all([
        this.log.endOffsets(topic),
        this.log.committedOffsets(group, topic),
      ]);
      ends.forEach((end, p) => {
        if ((committed[p] ?? 0) < end) quiet = false;
      });
      parts.push(committed.join(','));
    }
    const { rows } = await this.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM "${this.prefix}ledger".outbox)::int + (SELECT count(*) FROM "${this.prefix}wallet".outbox)::int AS n`,
    );
    if (rows[0]!.n > 0) quiet = false;
    return { quiet, text: parts.join('/') };
  }

  async close(): Promise<void> {
    await this.db.end();
  }
}
