// `npm run openapi`: writes docs/openapi.json from the server's schemas for the default config's edge types (a unit test checks the file is current).
import fs from 'node:fs';
import { openApiDocument } from './openApiDocument.ts';
import { API_VERSION, DOCUMENTED_EDGE_TYPES, OPENAPI_FILE } from './openApiFile.ts';

fs.writeFileSync(OPENAPI_FILE, `${JSON.stringify(openApiDocument(API_VERSION, DOCUMENTED_EDGE_TYPES), null, 2)}\n`);
console.log(`wrote ${OPENAPI_FILE}`);
