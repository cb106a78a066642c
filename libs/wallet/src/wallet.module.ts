import { Module } from '@nestjs/common';

/** Deposits, withdrawals and the chain adapter. */
@Module({})
export class WalletModule {}
