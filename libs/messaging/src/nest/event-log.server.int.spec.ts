import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { waitFor } from '../../../../test/support/wait-for';
import { EmbeddedEventLog } from '../embedded/embedded-event-log';
import type { BatchOutcome, IncomingBatch, IncomingRecord } from '../event-log.port';
import { ConsumeBatches } from './consume-batches.decorator';
import { EventLogServer } from './event-log.server';

@Controller()
class DoublingController {
  @ConsumeBatches({ topic: 'numbers', groupId: 'doubler', fromBeginning: true })
  async double(batch: IncomingBatch): Promise<BatchOutcome> {
    return { emit: batch.records.map((r) => ({ topic: 'doubled', key: r.key, value: String(Number(r.value) * 2) })) };
  }
}

@Module({ controllers: [DoublingController] })
class DoublingModule {}

describe('EventLogServer: Nest handlers on the event log', () => {
  it('hands batches to @ConsumeBatches methods and commits what they return with the offset', async () => {
    const log = await EmbeddedEventLog.open({ dir: mkdtempSync(join(tmpdir(), 'nest-transport-')) });
    await log.createTopics([
      { name: 'numbers', partitions: 2, key: 'userId', config: {} },
      { name: 'doubled', partitions: 2, key: 'userId', config: {} },
    ]);
    await log.publish(Array.from({ length: 20 }, (_, i) => ({ topic: 'numbers', key: `k${i % 3}`, value: String(i) })));

    const app = await NestFactory.createMicroservice(DoublingModule, {
      strategy: new EventLogServer(log),
      logger: false,
    });
    await app.listen();
    await waitFor(
      async () => (await log.committedOffsets('doubler', 'numbers')).reduce((a, b) => a + b, 0) === 20,
      'all 20 committed',
    );
    await app.close();

    const out: IncomingRecord[] = [];
    for (const p of [0, 1]) await log.read('doubled', p, 0, async (b) => void out.push(...b));
    expect(out.map((r) => Number(r.value)).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
    await log.close();
  });
});
