import { z } from 'zod';
import { ApiError, type EndpointDoc, ErrorCode, type ErrorCodeValue, type RequestParams } from '@exchange/platform';

/** What the OpenAPI entry says of a parameter, and the code a wrong value of an enum answers. */
interface ParamMeta {
  description: string;
  integer?: boolean;
  values?: readonly string[];
  code?: ErrorCodeValue;
}

const metas = new WeakMap<z.ZodType, ParamMeta>();

function declared<T extends z.ZodType>(schema: T, meta: ParamMeta): T {
  metas.set(schema, meta);
  return schema;
}

const PLAIN_INTEGER = /^-?\d{1,16}$/;

/**
 * The parameters a private endpoint declares, each a zod schema of the raw text (absent and
 * empty arrive alike, as undefined; `.optional()` makes one optional). Their rules and messages
 * are RequestParams' own, so an endpoint answers the same whichever way it reads a parameter.
 */
export const param = {
  text: (description: string) => declared(z.string(), { description }),

  /** A plain integer in [min, max]: no exponent, no decimals, a sign only when min < 0. */
  int: (description: string, min: number, max: number) =>
    declared(
      z
        .string()
        .regex(PLAIN_INTEGER, 'expected a plain integer')
        .transform(Number)
        .refine((n) => Number.isSafeInteger(n) && n >= min && n <= max, `expected an integer from ${min} to ${max}`),
      { description, integer: true },
    ),

  oneOf: <const T extends readonly [string, ...string[]]>(
    values: T,
    description: string,
    code: ErrorCodeValue = ErrorCode.INVALID_PARAM_VALUE,
  ) => declared(z.enum(values), { description, values, code }),
};

export type ParamShape = Record<string, z.ZodType<unknown, string> | z.ZodOptional<z.ZodType<unknown, string>>>;

function metaOf(schema: z.ZodType): ParamMeta {
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  const meta = metas.get(inner);
  if (!meta) throw new Error('endpoint parameters are declared with param.text / param.int / param.oneOf');
  return meta;
}

/** The declared parameters as the OpenAPI entry lists them, in declaration order. */
export function paramsDoc(params: z.ZodObject<ParamShape>): NonNullable<EndpointDoc['query']> {
  return Object.entries(params.shape).map(([name, schema]) => {
    const meta = metaOf(schema);
    return {
      name,
      ...(schema instanceof z.ZodOptional ? {} : { required: true }),
      description: meta.description,
      ...(meta.values ? { enum: meta.values } : {}),
      ...(meta.integer ? { type: 'integer' as const } : {}),
    };
  });
}

/** The declared parameters of a request, typed; the first one wrong (in declaration order) is the answer's error. */
export function parseParams<S extends ParamShape>(
  params: z.ZodObject<S>,
  raw: RequestParams,
): z.output<z.ZodObject<S>> {
  const input = Object.fromEntries(Object.keys(params.shape).map((name) => [name, raw.optional(name)]));
  const parsed = params.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const name = String(issue.path[0]);
  if (input[name] === undefined) throw ApiError.missing(name);
  const meta = metaOf(params.shape[name]!);
  if (meta.values)
    throw new ApiError(meta.code!, `Invalid value for parameter '${name}': expected one of ${meta.values.join(', ')}.`);
  throw ApiError.invalid(name, issue.message);
}
