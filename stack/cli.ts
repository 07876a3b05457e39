#!/usr/bin/env node
// `npm run stack:up | stack:down | stack:status`: the local JVM stack (Kafka, Cassandra, registry).
// With `-- --cluster`: the local 3-node cluster (stack/clusterStack.ts), in its own dir and ports.
// With `-- --secure`: the secured stack (stack/secureStack.ts: SASL_SSL, TLS, passwords), in its own dir and ports.
import { clusterConfigPath, clusterDown, clusterEndpoints, clusterStatus, clusterUp, loadClusterStackConfig } from './clusterStack.ts';
import { endpointsToEnv } from './endpoints.ts';
import { localEndpoints } from './localEndpoints.ts';
import { stackDown, stackStatus, stackUp } from './localStack.ts';
import { loadSecureStackConfig, secureConfigPath, secureEndpoints, secureStackDown, secureStackStatus, secureStackUp } from './secureStack.ts';
import { loadStackConfig } from './stackConfig.ts';

const log = (line: string) => console.error(`[stack] ${line}`);

const SINGLE = { load: () => loadStackConfig(), up: stackUp, down: stackDown, status: stackStatus, endpoints: localEndpoints };
const CLUSTER = { load: () => loadClusterStackConfig(), up: clusterUp, down: clusterDown, status: clusterStatus, endpoints: clusterEndpoints };
const SECURE = { load: () => loadSecureStackConfig(), up: secureStackUp, down: secureStackDown, status: secureStackStatus, endpoints: secureEndpoints };

async function main(command: string | undefined, flags: readonly string[]): Promise<number> {
  const cluster = flags.includes('--cluster');
  const secure = flags.includes('--secure');
  if (cluster && secure) throw new Error('--cluster and --secure are two different stacks: give one');
  const stack = cluster ? CLUSTER : secure ? SECURE : SINGLE;
  const config = stack.load();
  switch (command) {
    case 'up': {
      const result = await stack.up(config, log);
      log(result.started.length === 0
        ? `already running (${result.alreadyRunning.join(', ')})`
        : `up in ${(result.elapsedMs / 1000).toFixed(1)} s (started ${result.started.join(', ')})`);
      if (secure) {
        // The env form carries no TLS or credentials: the secured stack is reached through its config file only.
        log(`project config (edge types follows, likes; cluster section with TLS, SCRAM, passwords by file): ${secureConfigPath(config)}`);
        log(`run against it with \`edgestream --config ${secureConfigPath(config)} <command>\``);
        return 0;
      }
      for (const [k, v] of Object.entries(endpointsToEnv(stack.endpoints(config)))) console.log(`export ${k}=${v}`);
      if (cluster) {
        log(`project config (cluster section, RF 3, LOCAL_QUORUM, min.insync.replicas 2): ${clusterConfigPath(config)}`);
        log('run against it with `npm start -- --cluster` or `edgestream --cluster <command>` (or --config with that file)');
      }
      return 0;
    }
    case 'down':
      await stack.down(config, log);
      return 0;
    case 'status': {
      const rows = await stack.status(config);
      for (const r of rows) {
        const mem = r.rssBytes ? `${Math.round(r.rssBytes / 2 ** 20)} MiB` : '-';
        console.log(`${r.server.padEnd(11)} ${r.state.padEnd(15)} ready=${String(r.ready).padEnd(5)} pid=${r.pid ?? '-'} rss=${mem} ${r.logPath ?? ''}`);
      }
      return rows.every((r) => r.state === 'running' && r.ready) ? 0 : 3;
    }
    default:
      console.error('usage: stack/cli.ts up|down|status [--cluster | --secure]');
      return 2;
  }
}

main(process.argv[2], process.argv.slice(3)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`[stack] ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
