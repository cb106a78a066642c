import { addProcessedCommandTimes, dropProcessedCommandTimes } from '@exchange/messaging';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Processed command ids expire after the retry window instead of being kept forever. */
export class ExpireWalletProcessedCommands1767571200001 implements MigrationInterface {
  name = 'ExpireWalletProcessedCommands1767571200001';

  async up(runner: QueryRunner): Promise<void> {
    await addProcessedCommandTimes(runner, runner.connection.driver.schema!);
  }

  async down(runner: QueryRunner): Promise<void> {
    await dropProcessedCommandTimes(runner, runner.connection.driver.schema!);
  }
}
