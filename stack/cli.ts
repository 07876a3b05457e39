#!/usr/bin/env node
// `npm run stack:up | stack:down | stack:status`: the local JVM stack (Kafka, Cassandra, registry).
import { endpointsToEnv } from './endpoints.ts';
import { localEndpoints } from './localEndpoints.ts';
import { stackDown, stackStatus, stackUp } from './localStack.ts';
import { loadStackConfig } from './stackConfig.ts';

const log = (line: string) => console.error(`[stack] ${line}`);

async function main(command: string | undefined): Promise<number> {
  const config = loadStackConfig();
  switch (command) {
    case 'up': {
      const result = await stackUp(config, log);
      log(result.started.length === 0
        ? `already running (${result.alreadyRunning.join(', ')})`
        : `up in ${(result.elapsedMs / 1000).toFixed(1)} s (started ${result.started.join(', ')})`);
      for (const [k, v] of Object.entries(endpointsToEnv(localEndpoints(config)))) console.log(`export ${k}=${v}`);
      return 0;
    }
    case 'down':
      await stackDown(config, log);
      return 0;
    case 'status': {
      const rows = await stackStatus(config);
      for (const r of rows) {
        const mem = r.rssBytes ? `${Math.round(r.rssBytes / 2 ** 20)} MiB` : '-';
        console.log(`${r.server.padEnd(10)} ${r.state.padEnd(15)} ready=${String(r.ready).padEnd(5)} pid=${r.pid ?? '-'} rss=${mem} ${r.logPath ?? ''}`);
      }
      return rows.every((r) => r.state === 'running' && r.ready) ? 0 : 3;
    }
    default:
      console.error('usage: stack/cli.ts up|down|status');
      return 2;
  }
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`[stack] ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
