import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { buildOpenApiDocument } from './build-openapi-document';

describe('docs/openapi.json', () => {
  it('is what the code generates (run `npm run openapi` after changing an endpoint)', async () => {
    const committed = JSON.parse(readFileSync('docs/openapi.json', 'utf8'));
    expect(JSON.parse(JSON.stringify(await buildOpenApiDocument()))).toEqual(committed);
  });
});
