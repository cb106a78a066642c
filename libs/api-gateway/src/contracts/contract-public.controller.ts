import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { ApiEndpoint } from '@exchange/platform';
import { ContractService } from './contract.service';

/** The contract family's public reads served by the gateway (CONTRACTS.md, Public data): no key, no signature. */
@ApiTags('public: contracts')
@Controller('openapi/contract/v1')
export class ContractPublicController {
  constructor(@Inject(ContractService) private readonly contracts: ContractService) {}

  @Get('insurance')
  @ApiEndpoint({
    summary: "The insurance fund's USDT (the sum of every ledger partition's fund account)",
    weight: 1,
    ok: z.object({ token: z.string(), balance: z.string(), time: z.number() }),
  })
  insurance() {
    return this.contracts.insurance();
  }
}
