import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { z } from 'zod';

/**
 * Response shapes are zod schemas: the OpenAPI document is generated from them, and e2e tests
 * parse real answers with the same schemas, so the document cannot drift from what is served.
 */
export function openApiSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return rest;
}

export const errorBodySchema = z
  .object({
    code: z.number().int().negative().meta({ example: -1121 }),
    msg: z.string().meta({ example: "Invalid symbol 'XYZ'." }),
  })
  .strict();

/** A plain decimal string as the family writes amounts and prices: no exponent, no sign. */
export const decimalStringSchema = z
  .string()
  .regex(/^\d+(\.\d+)?$/)
  .meta({ example: '0.01' });

export interface EndpointDoc {
  summary: string;
  description?: string;
  /** Request weight counted against REQUESTS_WEIGHT. */
  weight?: number | string;
  ok: z.ZodType;
  query?: {
    name: string;
    required?: boolean;
    description: string;
    enum?: readonly string[];
    type?: 'string' | 'integer';
  }[];
}

const UNAVAILABLE =
  'Overloaded, or PostgreSQL, the event log or the disk cannot serve right now (-1016); retry shortly.';

/** Documents one endpoint: summary, weight, query parameters, the 200 shape and the error envelope. */
export function ApiEndpoint(doc: EndpointDoc): MethodDecorator {
  const weight = doc.weight === undefined ? '' : `\n\nWeight: ${doc.weight}.`;
  return applyDecorators(
    ApiExtraModels(),
    ApiOperation({ summary: doc.summary, description: `${doc.description ?? ''}${weight}`.trim() || undefined }),
    ...(doc.query ?? []).map((q) =>
      ApiQuery({
        name: q.name,
        required: q.required ?? false,
        description: q.description,
        schema: q.enum ? { type: 'string', enum: [...q.enum] } : { type: q.type ?? 'string' },
      }),
    ),
    ApiOkResponse({ schema: openApiSchema(doc.ok) }),
    ApiResponse({
      status: 400,
      description: 'Bad parameter or business rejection.',
      schema: openApiSchema(errorBodySchema),
    }),
    ApiResponse({
      status: 429,
      description: 'Rate limit exceeded (-1003, -1015); see Retry-After.',
      schema: openApiSchema(errorBodySchema),
    }),
    ApiResponse({ status: 500, description: 'Internal error (-1001).', schema: openApiSchema(errorBodySchema) }),
    ApiResponse({ status: 503, description: UNAVAILABLE, schema: openApiSchema(errorBodySchema) }),
  );
}

/**
 * The same documentation as `ApiEndpoint`, as an OpenAPI operation object, for routes registered
 * on Fastify directly (hot public GETs) where Nest's decorators cannot see them.
 */
export function openApiOperation(doc: EndpointDoc, tag: string, operationId: string): Record<string, unknown> {
  const weight = doc.weight === undefined ? '' : `\n\nWeight: ${doc.weight}.`;
  const description = `${doc.description ?? ''}${weight}`.trim();
  const json = (schema: z.ZodType, text: string) => ({
    description: text,
    content: { 'application/json': { schema: openApiSchema(schema) } },
  });
  return {
    ...(description ? { description } : {}),
    operationId,
    parameters: (doc.query ?? []).map((q) => ({
      name: q.name,
      required: q.required ?? false,
      in: 'query',
      description: q.description,
      schema: q.enum ? { type: 'string', enum: [...q.enum] } : { type: q.type ?? 'string' },
    })),
    responses: {
      200: json(doc.ok, ''),
      400: json(errorBodySchema, 'Bad parameter or business rejection.'),
      429: json(errorBodySchema, 'Rate limit exceeded (-1003, -1015); see Retry-After.'),
      500: json(errorBodySchema, 'Internal error (-1001).'),
      503: json(errorBodySchema, UNAVAILABLE),
    },
    summary: doc.summary,
    tags: [tag],
  };
}
