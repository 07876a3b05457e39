import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultEdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';

/** The checked-in copy of the OpenAPI document. */
export const OPENAPI_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/openapi.json');

/** The API's version (info.version): bump on an incompatible change. */
export const API_VERSION = '1.0.0';

/** The edge types the checked-in copy lists: those of `defaultEdgestreamConfig` (a server serves its own config's). */
export const DOCUMENTED_EDGE_TYPES: readonly string[] = defaultEdgestreamConfig().edgeTypes.map((t) => t.name);
