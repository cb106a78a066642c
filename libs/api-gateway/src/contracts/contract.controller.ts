import { Controller, Inject } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { PrivateRoute, Signed, type SignedRequest } from '../auth/private-route';
import { ContractEndpoints as E } from './contract.endpoints';
import { ContractService } from './contract.service';

/** Perpetual contract trading (CONTRACTS.md, Orders): the BHEx family's contract API. */
@ApiTags('private: contracts')
@ApiHeader({ name: 'X-SERVICE-KEY', required: true, description: 'API key' })
@Controller('openapi/contract/v1')
export class ContractController {
  constructor(@Inject(ContractService) private readonly contracts: ContractService) {}

  @PrivateRoute(E.place)
  place(@Signed() request: SignedRequest<typeof E.place>) {
    return this.contracts.place(request);
  }

  @PrivateRoute(E.cancel)
  cancel(@Signed() request: SignedRequest<typeof E.cancel>) {
    return this.contracts.cancel(request);
  }

  @PrivateRoute(E.batchCancel)
  batchCancel(@Signed() request: SignedRequest<typeof E.batchCancel>) {
    return this.contracts.batchCancel(request);
  }

  @PrivateRoute(E.getOrder)
  getOrder(@Signed() request: SignedRequest<typeof E.getOrder>) {
    return this.contracts.getOrder(request);
  }

  @PrivateRoute(E.openOrders)
  openOrders(@Signed() request: SignedRequest<typeof E.openOrders>) {
    return this.contracts.openOrders(request);
  }

  @PrivateRoute(E.historyOrders)
  historyOrders(@Signed() request: SignedRequest<typeof E.historyOrders>) {
    return this.contracts.historyOrders(request);
  }

  @PrivateRoute(E.myTrades)
  myTrades(@Signed() request: SignedRequest<typeof E.myTrades>) {
    return this.contracts.myTrades(request);
  }

  @PrivateRoute(E.positions)
  positions(@Signed() request: SignedRequest<typeof E.positions>) {
    return this.contracts.positions(request);
  }

  @PrivateRoute(E.account)
  account(@Signed() request: SignedRequest<typeof E.account>) {
    return this.contracts.account(request);
  }

  @PrivateRoute(E.modifyMargin)
  modifyMargin(@Signed() request: SignedRequest<typeof E.modifyMargin>) {
    return this.contracts.modifyMargin(request);
  }
}
