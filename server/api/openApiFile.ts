import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checked-in copy of the OpenAPI document. */
export const OPENAPI_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/openapi.json');

/** The API's version (info.version): bump on an incompatible change. */
export const API_VERSION = '1.0.0';
