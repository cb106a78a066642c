import { Module } from '@nestjs/common';

/** Accounts, balances, balance flow and the account-side record of orders: a fold over ledger.commands. */
@Module({})
export class LedgerModule {}
