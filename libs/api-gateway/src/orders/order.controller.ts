import { Controller, Inject } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { PrivateRoute, Signed, type SignedRequest } from '../auth/private-route';
import { OrderEndpoints as E } from './order.endpoints';
import { OrderService } from './order.service';

/** New, test, query and cancel orders; open and history orders; account trades (spec 4.3.1–4.3.7). */
@ApiTags('private: trading')
@ApiHeader({ name: 'X-SERVICE-KEY', required: true, description: 'API key' })
@Controller('openapi/v1')
export class OrderController {
  constructor(@Inject(OrderService) private readonly orders: OrderService) {}

  @PrivateRoute(E.place)
  place(@Signed() request: SignedRequest<typeof E.place>) {
    return this.orders.place(request);
  }

  @PrivateRoute(E.test)
  test(@Signed() request: SignedRequest<typeof E.test>) {
    return this.orders.test(request);
  }

  @PrivateRoute(E.query)
  query(@Signed() request: SignedRequest<typeof E.query>) {
    return this.orders.query(request);
  }

  @PrivateRoute(E.cancel)
  cancel(@Signed() request: SignedRequest<typeof E.cancel>) {
    return this.orders.cancel(request);
  }

  @PrivateRoute(E.openOrders)
  openOrders(@Signed() request: SignedRequest<typeof E.openOrders>) {
    return this.orders.openOrders(request);
  }

  @PrivateRoute(E.historyOrders)
  historyOrders(@Signed() request: SignedRequest<typeof E.historyOrders>) {
    return this.orders.historyOrders(request);
  }

  @PrivateRoute(E.myTrades)
  myTrades(@Signed() request: SignedRequest<typeof E.myTrades>) {
    return this.orders.myTrades(request);
  }
}
