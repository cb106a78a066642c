import { Controller, Inject } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { PrivateRoute, Signed, type SignedRequest } from '../auth/private-route';
import { WalletEndpoints as E } from './wallet.endpoints';
import { WalletService } from './wallet.service';

/** Withdraw, withdrawal queries and deposit orders (spec 4.3.9–4.3.11, 4.3.14). */
@ApiTags('private: wallet')
@ApiHeader({ name: 'X-SERVICE-KEY', required: true, description: 'API key' })
@Controller('openapi/v1')
export class WalletController {
  constructor(@Inject(WalletService) private readonly wallet: WalletService) {}

  @PrivateRoute(E.withdraw)
  withdraw(@Signed() request: SignedRequest<typeof E.withdraw>) {
    return this.wallet.withdraw(request);
  }

  @PrivateRoute(E.withdrawalOrders)
  withdrawalOrders(@Signed() request: SignedRequest<typeof E.withdrawalOrders>) {
    return this.wallet.withdrawalOrders(request);
  }

  @PrivateRoute(E.detail)
  detail(@Signed() request: SignedRequest<typeof E.detail>) {
    return this.wallet.detail(request);
  }

  @PrivateRoute(E.depositOrders)
  depositOrders(@Signed() request: SignedRequest<typeof E.depositOrders>) {
    return this.wallet.depositOrders(request);
  }
}
