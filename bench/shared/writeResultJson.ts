import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './benchEnvironment.ts';

/** Writes a bench result as indented JSON (bigints as strings) to `file` (relative to the repo), creating its folder; returns the path relative to the repo. */
export function writeResultJson(file: string, result: unknown): string {
  const out = path.resolve(REPO_ROOT, file);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);
  return path.relative(REPO_ROOT, out);
}
