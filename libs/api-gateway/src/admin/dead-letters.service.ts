import { Topics } from '@exchange/contracts';
import type { EventLog } from '@exchange/messaging';
import { ApiError } from '@exchange/platform';
import { z } from 'zod';

export const deadLetterSchema = z.object({
  id: z.string(),
  service: z.string(),
  topic: z.string(),
  partition: z.number().int(),
  offset: z.number().int(),
  key: z.string(),
  value: z.string(),
  headers: z.record(z.string(), z.string()),
  error: z.object({ code: z.string().optional(), message: z.string() }),
});
export type DeadLetter = z.infer<typeof deadLetterSchema>;

/** Only commands go back, and only to the inputs they were parked from. */
const REDRIVABLE: ReadonlySet<string> = new Set([Topics.ledgerCommands.name, Topics.walletCommands.name]);

/**
 * The operator's view of `operator.dead-letters` (records a consumer could neither apply nor
 * reject), and the way back: a letter's record published again, as it was, to its topic. A
 * parked command's id was never marked processed, so it is applied once when it comes back; a
 * record still bad is parked again, as a new letter.
 */
export class DeadLetterService {
  constructor(private readonly log: EventLog) {}

  async list(fromId: number, limit: number): Promise<DeadLetter[]> {
    const end = (await this.log.endOffsets(Topics.deadLetters.name))[0] ?? 0;
    const until = Math.min(end, fromId + limit);
    const out: DeadLetter[] = [];
    if (fromId >= until) return out;
    await this.log.read(
      Topics.deadLetters.name,
      0,
      fromId,
      async (records) =>
        void out.push(
          ...records.map((r) => ({ id: String(r.offset), ...(JSON.parse(r.value) as Omit<DeadLetter, 'id'>) })),
        ),
      until,
    );
    return out.slice(0, limit);
  }

  async redrive(id: number): Promise<DeadLetter> {
    const [letter] = id < 0 ? [] : await this.list(id, 1);
    if (!letter) throw ApiError.invalid('id', `dead letter ${id} does not exist`);
    if (!REDRIVABLE.has(letter.topic))
      throw ApiError.invalid('id', `records of ${letter.topic} are not published again`);
    await this.log.publish([{ topic: letter.topic, key: letter.key, value: letter.value, headers: letter.headers }]);
    return letter;
  }
}
