// Writes docs/openapi.json from the code (npm run openapi). A test fails when the committed file
// and the code disagree, so the document grows with every endpoint.
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from './build-openapi-document';

buildOpenApiDocument()
  .then((document) => {
    writeFileSync('docs/openapi.json', JSON.stringify(document, null, 2) + '\n');
    console.log(`docs/openapi.json: ${Object.keys(document.paths).length} paths`);
    process.exit(0);
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
