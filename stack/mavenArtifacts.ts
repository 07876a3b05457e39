import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { StackError } from './stackError.ts';

const execFileAsync = promisify(execFile);

/** Pinned so that an old Maven's default dependency plugin is never used. */
const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.6.1';

export interface MavenDependency {
  readonly groupId: string;
  readonly artifactId: string;
  readonly version: string;
}

/** A throwaway pom whose only job is to name a server's runtime classpath. */
export function classpathPom(name: string, deps: readonly MavenDependency[]): string {
  const lines = deps.map(
    (d) =>
      `    <dependency><groupId>${d.groupId}</groupId><artifactId>${d.artifactId}</artifactId><version>${d.version}</version></dependency>`,
  );
  return [
    '<project xmlns="http://maven.apache.org/POM/4.0.0">',
    '  <modelVersion>4.0.0</modelVersion>',
    `  <groupId>local.edgestream.stack</groupId><artifactId>${name}</artifactId><version>1</version>`,
    '  <packaging>pom</packaging>',
    '  <dependencies>',
    ...lines,
    '  </dependencies>',
    '</project>',
    '',
  ].join('\n');
}

async function mvn(args: readonly string[], cwd: string, what: string): Promise<void> {
  try {
    await execFileAsync('mvn', ['-B', '-q', ...args], { cwd, timeout: 20 * 60_000, maxBuffer: 64 << 20 });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    if (err.code === 'ENOENT') {
      throw new StackError('MAVEN_MISSING', 'Maven (mvn) is not on PATH; install it (e.g. apt-get install maven) to provision the local stack.');
    }
    const tail = `${err.stdout ?? ''}${err.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new StackError('DOWNLOAD_FAILED', `downloading ${what} with Maven failed:\n${tail}`, { cause: e });
  }
}

/**
 * Makes `dir` exist with complete contents, built by `fill` in a scratch sibling and
 * renamed into place, so an interrupted download never leaves a half-filled cache entry.
 */
export async function provisionOnce(dir: string, fill: (scratch: string) => Promise<void>): Promise<string> {
  if (fs.existsSync(path.join(dir, '.complete'))) return dir;
  const scratch = `${dir}.partial-${process.pid}`;
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(scratch, { recursive: true });
  try {
    await fill(scratch);
    fs.writeFileSync(path.join(scratch, '.complete'), new Date().toISOString());
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(scratch, dir);
  } catch (e) {
    fs.rmSync(scratch, { recursive: true, force: true });
    if (fs.existsSync(path.join(dir, '.complete'))) return dir; // a concurrent run won the race
    throw e;
  }
  return dir;
}

/** Copies the runtime classpath of `deps` into `<cacheDir>/<name>/lib`; returns that lib dir. */
export async function ensureClasspath(cacheDir: string, name: string, deps: readonly MavenDependency[]): Promise<string> {
  const dir = await provisionOnce(path.join(cacheDir, name), async (scratch) => {
    fs.writeFileSync(path.join(scratch, 'pom.xml'), classpathPom(name, deps));
    await mvn([`${DEPENDENCY_PLUGIN}:copy-dependencies`, '-DincludeScope=runtime', '-DoutputDirectory=lib'], scratch, name);
  });
  return path.join(dir, 'lib');
}

/** Downloads one archive artifact (`g:a:v:type:classifier`) and unpacks it into `<cacheDir>/<name>/app`. */
export async function ensureUnpackedArchive(cacheDir: string, name: string, coordinates: string): Promise<string> {
  const dir = await provisionOnce(path.join(cacheDir, name), async (scratch) => {
    await mvn([`${DEPENDENCY_PLUGIN}:copy`, `-Dartifact=${coordinates}`, '-DoutputDirectory=dist'], scratch, name);
    const archive = fs.readdirSync(path.join(scratch, 'dist'))[0];
    if (!archive) throw new StackError('DOWNLOAD_FAILED', `Maven returned no file for ${coordinates}`);
    fs.mkdirSync(path.join(scratch, 'app'));
    await execFileAsync('tar', ['-xzf', path.join(scratch, 'dist', archive), '-C', path.join(scratch, 'app')]);
    fs.rmSync(path.join(scratch, 'dist'), { recursive: true }); // keep only the unpacked app
  });
  return path.join(dir, 'app');
}
