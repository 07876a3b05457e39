import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { StackError } from './stackError.ts';

const execFileAsync = promisify(execFile);

export interface JavaRuntime {
  readonly bin: string;
  readonly major: number;
}

/** Parses the major version out of `java -version` output ("17.0.15", "1.8.0_402", "25"). */
export function parseJavaMajor(versionOutput: string): number | undefined {
  const m = /version "(\d+)(?:\.(\d+))?/.exec(versionOutput);
  if (!m?.[1]) return undefined;
  const first = Number(m[1]);
  return first === 1 && m[2] ? Number(m[2]) : first;
}

async function probe(bin: string): Promise<JavaRuntime | undefined> {
  try {
    const { stderr, stdout } = await execFileAsync(bin, ['-version'], { timeout: 15_000 });
    const major = parseJavaMajor(stderr + stdout);
    return major === undefined ? undefined : { bin, major };
  } catch {
    return undefined;
  }
}

/** Every java binary worth trying: explicit homes first, then JAVA_HOME, PATH, and /usr/lib/jvm. */
function candidates(env: NodeJS.ProcessEnv): string[] {
  const homes = [env['EDGESTREAM_JAVA_HOME'], env['JAVA_HOME']].filter((h): h is string => !!h);
  const jvmDir = '/usr/lib/jvm';
  if (fs.existsSync(jvmDir)) {
    for (const entry of fs.readdirSync(jvmDir).sort()) homes.push(path.join(jvmDir, entry));
  }
  const bins = homes.map((h) => path.join(h, 'bin', 'java')).filter((b) => fs.existsSync(b));
  return [...new Set([...bins, 'java'])];
}

/**
 * Finds a java whose major version satisfies `accept`. Cassandra 5.0 runs only on 11/17
 * (it installs a SecurityManager, which JDK 18+ refuses), Apicurio 3.3 needs 21+, so one
 * machine usually needs two JDKs.
 */
export async function findJava(
  what: string,
  accept: (major: number) => boolean,
  wanted: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<JavaRuntime> {
  const seen: string[] = [];
  for (const bin of candidates(env)) {
    const rt = await probe(bin);
    if (!rt) continue;
    seen.push(`${bin} (${rt.major})`);
    if (accept(rt.major)) return rt;
  }
  throw new StackError(
    'JAVA_MISSING',
    `${what} needs ${wanted}; found ${seen.length ? seen.join(', ') : 'no java at all'}. ` +
      `Install one (e.g. apt-get install openjdk-17-jdk-headless, or a Temurin JDK) ` +
      `or point EDGESTREAM_JAVA_HOME at it.`,
  );
}
