import {
  applyDecorators,
  type CanActivate,
  createParamDecorator,
  Delete,
  type ExecutionContext,
  Get,
  HttpCode,
  Inject,
  Injectable,
  Post,
  Put,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ApiEndpoint } from '@exchange/platform';
import { type ParamShape, paramsDoc, parseParams } from './endpoint-params';
import { PrivateEndpoints, type PrivateEndpointSpec } from './private-endpoint';
import { signedQueryDoc, stampQueryDoc } from './signed-query.doc';
import type { AuthContext } from './signed-request-authenticator';

/**
 * One private endpoint, declared once: its route, what it costs and needs (weight, permission,
 * order count, signature), its parameters and its answer. `@PrivateRoute` makes of it the Nest
 * route, the OpenAPI entry and the door every request passes (authenticate, charge, parse).
 */
export interface PrivateEndpoint<S extends ParamShape = ParamShape> extends PrivateEndpointSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Below the controller's prefix. */
  path: string;
  summary: string;
  description?: string;
  ok: z.ZodType;
  /** The endpoint's own parameters; timestamp, recvWindow and signature are every endpoint's and are added to the document. */
  params: z.ZodObject<S>;
}

/** A declaration, its parameters' types kept for the handler's `query`. */
export function privateEndpoint<S extends ParamShape>(endpoint: PrivateEndpoint<S>): PrivateEndpoint<S> {
  return endpoint;
}

/** What a handler of a declared endpoint receives: the authenticated key and the parsed parameters. */
export type SignedRequest<E extends PrivateEndpoint> = AuthContext & { query: z.output<E['params']> };

const ENDPOINT = Symbol('private endpoint');
const SIGNED = Symbol('signed request');

const routes = { GET: Get, POST: Post, PUT: Put, DELETE: Delete } as const;

export function PrivateRoute(endpoint: PrivateEndpoint): MethodDecorator {
  return applyDecorators(
    routes[endpoint.method](endpoint.path),
    // The family answers 200 to every POST (Nest's default would be 201).
    ...(endpoint.method === 'POST' ? [HttpCode(200)] : []),
    ApiEndpoint({
      summary: endpoint.summary,
      ...(endpoint.description ? { description: endpoint.description } : {}),
      weight: endpoint.weight,
      ok: endpoint.ok,
      query: [...paramsDoc(endpoint.params), ...(endpoint.signatureOptional ? stampQueryDoc : signedQueryDoc)],
    }),
    SetMetadata(ENDPOINT, endpoint),
    UseGuards(PrivateEndpointGuard),
  );
}

/** The handler's argument: the request as the endpoint's door let it through. */
export const Signed = createParamDecorator(
  (_data: unknown, context: ExecutionContext) =>
    context.switchToHttp().getRequest<FastifyRequest & { [SIGNED]?: SignedRequest<PrivateEndpoint> }>()[SIGNED],
);

/**
 * The door of a declared endpoint: PrivateEndpoints' authentication and charges, then its
 * parameters parsed, before the handler runs. A guard rather than an interceptor: the door only
 * runs before the handler, and Nest wraps every interceptor in RxJS observables and an async
 * resource per request, which cost more than the door's own checks on a cached read (issue 16).
 */
@Injectable()
export class PrivateEndpointGuard implements CanActivate {
  constructor(
    @Inject(PrivateEndpoints) private readonly endpoints: PrivateEndpoints,
    @Inject(Reflector) private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const endpoint = this.reflector.get<PrivateEndpoint>(ENDPOINT, context.getHandler());
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { [SIGNED]?: SignedRequest<PrivateEndpoint> }>();
    const ctx = await this.endpoints.admit(request, http.getResponse<FastifyReply>(), endpoint);
    // Not a spread: V8 adds properties to a spread's copy on its slow path (~2 µs each).
    request[SIGNED] = Object.assign({}, ctx, { query: parseParams(endpoint.params, ctx.params) });
    return true;
  }
}
