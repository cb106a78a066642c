import { Controller, Header, Inject } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { PrivateRoute, Signed, type SignedRequest } from '../auth/private-route';
import { AccountEndpoints as E } from './account.endpoints';
import { AccountService, type FlowView, type SubAccountView } from './account.service';

/** Balances, sub-accounts, balance flow and transfers (spec 4.3.8, 4.3.12, 4.3.13, 4.3.15). */
@ApiTags('private: account')
@ApiHeader({ name: 'X-SERVICE-KEY', required: true, description: 'API key' })
@Controller('openapi/v1')
export class AccountController {
  constructor(@Inject(AccountService) private readonly accounts: AccountService) {}

  @PrivateRoute(E.account)
  // The answer comes as JSON text already: Fastify sends a string of this type without serialising it.
  @Header('content-type', 'application/json; charset=utf-8')
  account(@Signed() request: SignedRequest<typeof E.account>): Promise<string> {
    return this.accounts.account(request);
  }

  @PrivateRoute(E.subAccounts)
  subAccounts(@Signed() request: SignedRequest<typeof E.subAccounts>): Promise<SubAccountView[]> {
    return this.accounts.subAccounts(request);
  }

  @PrivateRoute(E.balanceFlowPost)
  balanceFlowPost(@Signed() request: SignedRequest<typeof E.balanceFlowPost>): Promise<FlowView[]> {
    return this.accounts.balanceFlow(request);
  }

  @PrivateRoute(E.balanceFlowGet)
  balanceFlowGet(@Signed() request: SignedRequest<typeof E.balanceFlowGet>): Promise<FlowView[]> {
    return this.accounts.balanceFlow(request);
  }

  @PrivateRoute(E.transfer)
  transfer(@Signed() request: SignedRequest<typeof E.transfer>): Promise<{ success: string }> {
    return this.accounts.transfer(request);
  }
}
