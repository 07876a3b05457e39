import fs from 'node:fs';
import path from 'node:path';
import { defaultEdgestreamConfig, parseEdgestreamConfig, type EdgestreamConfig, type EdgestreamConfigInput } from '../schemas/config/edgestreamConfig.ts';

export const DEFAULT_CONFIG_FILE = 'edgestream.config.json';

/**
 * The config for a command: `--config <file>` if given (it must exist), else
 * `./edgestream.config.json` if present, else the built-in defaults (edge types
 * `follows` and `likes`). A bad file fails naming the file and the field.
 * `onLocalCluster` (`--cluster`: `withLocalCluster` of cli/localClusterConfig.ts, which the caller
 * loads only then) turns the input into the config for the local 3-node cluster.
 */
export function loadConfig(
  file: string | undefined,
  onLocalCluster?: (input: EdgestreamConfigInput | undefined, source: string) => EdgestreamConfig,
): { config: EdgestreamConfig; source: string } {
  const chosen = file ?? (fs.existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
  if (!chosen) return { config: onLocalCluster ? onLocalCluster(undefined, 'built-in defaults') : defaultEdgestreamConfig(), source: 'built-in defaults' };
  const full = path.resolve(chosen);
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(full, 'utf8'));
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    throw new Error(`--config ${chosen}: ${why}`);
  }
  if (onLocalCluster) return { config: onLocalCluster(raw as EdgestreamConfigInput, `config file ${chosen}`), source: full };
  return { config: parseEdgestreamConfig(raw, `config file ${chosen}`), source: full };
}
