import { Get, Inject, Param } from '@nestjs/common';
import { z } from 'zod';
import { LedgerReader } from '@exchange/ledger-query';
import { ApiEndpoint, ApiError } from '@exchange/platform';
import { ContractService } from '../contracts/contract.service';
import { idParam } from './admin-params';
import { OperatorController } from './operator-controller';

export const adminContractsAccountSchema = z.object({
  accountId: z.string(),
  account: z.record(z.string(), z.record(z.string(), z.string())),
  positions: z.array(z.record(z.string(), z.string())),
});

/**
 * What an operator sees of a contracts account (type 3): its USDT and its positions, exactly as the
 * account's own key reads them from `/openapi/contract/v1/account` and `positions`.
 */
@OperatorController()
export class AdminContractsController {
  constructor(
    @Inject(LedgerReader) private readonly reader: LedgerReader,
    @Inject(ContractService) private readonly contracts: ContractService,
  ) {}

  @Get('accounts/:accountId/contracts')
  @ApiEndpoint({
    summary: "A contracts account's USDT (total, availableMargin, positionMargin, orderMargin) and positions",
    ok: adminContractsAccountSchema,
  })
  async contractsAccount(@Param('accountId') accountIdText: string) {
    const accountId = idParam('accountId', accountIdText);
    const account = await this.reader.account(accountId);
    if (!account) throw ApiError.invalid('accountId', `account ${accountId} does not exist`);
    if (account.accountType !== 3)
      throw ApiError.invalid('accountId', `account ${accountId} is not a contracts account (type 3)`);
    return {
      accountId,
      account: await this.contracts.accountOf(accountId),
      positions: await this.contracts.positionsOf(accountId),
    };
  }
}
