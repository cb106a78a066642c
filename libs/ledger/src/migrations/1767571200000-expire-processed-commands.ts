import { addProcessedCommandTimes, dropProcessedCommandTimes } from '@exchange/messaging';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Processed command ids expire after the retry window instead of being kept forever. */
export class ExpireProcessedCommands1767571200000 implements MigrationInterface {
  name = 'ExpireProcessedCommands1767571200000';

  async up(runner: QueryRunner): Promise<void> {
    await addProcessedCommandTimes(runner, runner.connection.driver.schema!);
  }

  async down(runner: QueryRunner): Promise<void> {
    await dropProcessedCommandTimes(runner, runner.connection.driver.schema!);
  }
}
