// `npm run openapi`: writes docs/openapi.json from the server's schemas (a unit test checks the file is current).
import fs from 'node:fs';
import { openApiDocument } from './openApiDocument.ts';
import { OPENAPI_FILE, API_VERSION } from './openApiFile.ts';

fs.writeFileSync(OPENAPI_FILE, `${JSON.stringify(openApiDocument(API_VERSION), null, 2)}\n`);
console.log(`wrote ${OPENAPI_FILE}`);
