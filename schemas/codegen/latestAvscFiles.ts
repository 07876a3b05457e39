import { readdirSync } from 'node:fs';

const AVSC_FILE = /^([A-Za-z_][A-Za-z0-9_]*)\.v([1-9][0-9]*)\.avsc$/;

/** One schema name and the newest version of it found in the folder. */
export interface LatestAvscFile {
  readonly name: string;
  readonly version: number;
  readonly fileName: string;
}

/**
 * The newest `<Name>.v<N>.avsc` per name in `dir`, sorted by name. Types are
 * generated from the newest version only (readers read with the newest schema
 * they know); older versions stay as files for fixtures and compatibility
 * checks. Any other file name in the folder is an error, so a typo cannot
 * silently drop a schema.
 */
export function latestAvscFiles(dir: string): LatestAvscFile[] {
  const latest = new Map<string, LatestAvscFile>();
  for (const fileName of readdirSync(dir).sort()) {
    const match = AVSC_FILE.exec(fileName);
    if (!match) throw new Error(`${dir}/${fileName}: expected <Name>.v<N>.avsc`);
    const name = match[1] as string;
    const version = Number(match[2]);
    const seen = latest.get(name);
    if (!seen || seen.version < version) latest.set(name, { name, version, fileName });
  }
  return [...latest.values()].sort((a, b) => a.name.localeCompare(b.name));
}
