import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type cassandra from 'cassandra-driver';
import type { StackEndpoints } from '../../stack/endpoints.ts';
import { readRecord } from '../../stack/localStack.ts';
import { loadStackConfig, STACK_VERSIONS } from '../../stack/stackConfig.ts';
import { round } from '../ingest/stats.ts';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * The commit the bench runs, which files outside bench/ differ from it (others may be editing),
 * and whether the whole tracked tree is clean (the figures are then exactly that commit's).
 */
export function codeVersion(): { commit: string; dirtyOutsideBench: string[]; cleanTree: boolean } {
  const changed = (...pathspec: string[]) =>
    execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', ...pathspec], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((l) => l.slice(3));
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    return { commit, dirtyOutsideBench: changed('.', ':(exclude)bench'), cleanTree: changed('.').length === 0 };
  } catch {
    return { commit: 'unknown', dirtyOutsideBench: [], cleanTree: false };
  }
}

/** Pids of the local stack's servers (for CPU accounting); empty for an external or Docker stack. */
export function serverPidsOf(endpoints: StackEndpoints): Record<string, number | undefined> {
  if (endpoints.source !== 'local') return {};
  const config = loadStackConfig();
  return { cassandra: readRecord(config, 'cassandra')?.pid, kafka: readRecord(config, 'kafka')?.pid, registry: readRecord(config, 'registry')?.pid };
}

export async function collectVersions(endpoints: StackEndpoints, cql: cassandra.Client) {
  const require = createRequire(import.meta.url);
  const pkg = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
  const release = (await cql.execute('SELECT release_version FROM system.local')).first()?.['release_version'] as string | undefined;
  const local = endpoints.source === 'local';
  return {
    node: process.version,
    kafka: local ? STACK_VERSIONS.kafka : 'unknown (external/docker)',
    cassandra: release ?? 'unknown',
    registry: local ? `Apicurio ${STACK_VERSIONS.apicurio}` : 'unknown (external/docker)',
    kafkajs: pkg('kafkajs'),
    cassandraDriver: pkg('cassandra-driver'),
    stackSource: endpoints.source,
  };
}

export function machine() {
  return { cores: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', memoryGiB: round(os.totalmem() / 2 ** 30, 1), loadAverage: os.loadavg().map((x) => round(x, 2)) };
}
