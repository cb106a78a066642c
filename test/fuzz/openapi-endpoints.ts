import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** How an endpoint is reached: who may call it decides what a fuzzed call must never do. */
export type EndpointClass = 'public' | 'signed' | 'operator' | 'stream';

export interface EndpointParam {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  type: string;
  enum?: string[];
}

export interface Endpoint {
  method: string;
  /** The documented path, with `{name}` for path parameters. */
  path: string;
  cls: EndpointClass;
  params: EndpointParam[];
  /** The documented 200 body; undefined where the document gives none (a success is then taken as it comes). */
  success?: z.ZodType;
}

interface OpenApiOperation {
  parameters?: {
    name: string;
    in: EndpointParam['in'];
    required?: boolean;
    schema?: { type?: string; enum?: string[] };
  }[];
  security?: unknown[];
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

const OPENAPI_FILE = join(__dirname, '../../docs/openapi.json');

/**
 * Every operation of docs/openapi.json, which is generated from the controllers and the route
 * tables (a test fails when it is stale): an endpoint added to the code is fuzzed without an edit
 * here. Signed endpoints are those taking X-SERVICE-KEY, operator ones those behind the bearer
 * token, streams those answering 101.
 */
export function documentedEndpoints(file = OPENAPI_FILE): Endpoint[] {
  const document = JSON.parse(readFileSync(file, 'utf8')) as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  const endpoints: Endpoint[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const params: EndpointParam[] = (operation.parameters ?? []).map((p) => ({
        name: p.name,
        in: p.in,
        required: p.required ?? false,
        type: p.schema?.type ?? 'string',
        ...(p.schema?.enum ? { enum: p.schema.enum } : {}),
      }));
      const schema = operation.responses?.['200']?.content?.['application/json']?.schema;
      endpoints.push({
        method: method.toUpperCase(),
        path,
        cls: classify(operation, params),
        params: params.filter((p) => p.in !== 'header'),
        ...(schema ? { success: z.fromJSONSchema(schema as never) } : {}),
      });
    }
  }
  return endpoints;
}

function classify(operation: OpenApiOperation, params: EndpointParam[]): EndpointClass {
  if (operation.responses?.['101']) return 'stream';
  if (params.some((p) => p.in === 'header' && p.name.toLowerCase() === 'x-service-key')) return 'signed';
  if ((operation.security ?? []).length > 0) return 'operator';
  return 'public';
}

/** The path with its parameters filled in (each value already encoded for a request target). */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? 'x');
}
