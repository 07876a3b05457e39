#!/usr/bin/env node
// `npm run -s kafka -- <tool> [args]`: Kafka's own command-line tools against the stack.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { endpointsFromEnv } from '../endpoints.ts';
import { localEndpoints } from '../localEndpoints.ts';
import { portOpen } from '../readiness.ts';
import { loadStackConfig } from '../stackConfig.ts';
import { KAFKA_TOOLS, kafkaToolJavaArgs, kafkaToolNamed, withDefaultBootstrap } from './kafkaToolArgs.ts';
import { ensureKafkaTools } from './kafkaToolsRuntime.ts';

const log = (line: string) => console.error(`[kafka] ${line}`);

const USAGE = `usage: npm run -s kafka -- <tool> [args...]
tools: ${Object.keys(KAFKA_TOOLS).join(', ')} (also as kafka-<tool>)
--bootstrap-server defaults to KAFKA_BROKERS, else the local stack's broker.`;

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  const tool = name === undefined ? undefined : kafkaToolNamed(name);
  if (!tool) {
    console.error(name === undefined || name === '--help' ? USAGE : `unknown Kafka tool "${name}"\n${USAGE}`);
    return 2;
  }
  const config = loadStackConfig();
  const fromEnv = endpointsFromEnv(process.env);
  const brokers = fromEnv?.kafkaBrokers ?? localEndpoints(config).kafkaBrokers;
  const { args, defaulted } = withDefaultBootstrap(rest, brokers);
  if (defaulted && !fromEnv && !(await portOpen(config.ports.kafka))) {
    log(`the local stack's Kafka is not answering on ${brokers.join(',')}: start it with \`npm run stack:up\`, or pass --bootstrap-server`);
    return 1;
  }
  const runtime = await ensureKafkaTools(config.cacheDir, log);
  const child = spawn(runtime.java, kafkaToolJavaArgs({ tool, args, classpath: runtime.classpath, log4jFile: runtime.log4jFile }), { stdio: 'inherit' });
  // The JVM gets our signals too, so a tool is never left behind when its launcher is stopped by pid.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? 128 + (signal ? os.constants.signals[signal] : 0)));
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    log(e instanceof Error ? e.message : String(e));
    process.exit(1);
  },
);
