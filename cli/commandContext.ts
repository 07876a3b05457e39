import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import type { KafkaPort } from '../streams/kafka/index.ts';
import pino, { type Logger } from 'pino';
import type { EdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import type { TwoLevelMapStore } from '../sinks/store/TwoLevelMapStore.ts';
import type { StackEndpoints } from '../stack/endpoints.ts';
import { commandStack } from './commandStack.ts';
import { loadConfig } from './loadConfig.ts';
import { logRedaction } from './logRedaction.ts';

export interface CommandContext {
  readonly config: EdgestreamConfig;
  readonly endpoints: StackEndpoints;
  /** Each client is created on first use: a Kafka client or the registry's is hundreds of modules that a read or `lag` never needs (bench:cli). */
  kafka(): Promise<KafkaPort>;
  registry(): Promise<SchemaRegistry>;
  readonly logger: Logger;
  /** Opened on first use; closed by `withCommandContext`. */
  store(): Promise<TwoLevelMapStore>;
}

export interface GlobalFlags {
  readonly config?: string;
  readonly keepStack?: boolean;
  /** On the local 3-node cluster (`npm run stack:up -- --cluster`), started if needed. */
  readonly cluster?: boolean;
}

/** pino JSON on stderr (stdout carries command results); level from LOG_LEVEL, default info; secret-bearing fields redacted. */
export function createCliLogger(): Logger {
  return pino({ level: process.env['LOG_LEVEL'] ?? 'info', base: { app: 'edgestream' }, redact: logRedaction }, pino.destination(2));
}

/**
 * Runs `fn` with the config, a stack (external, Docker or local), clients and a lazily
 * opened store, then releases everything. A local stack a command starts is left running
 * for the next command unless the command is one-shot and `--stop-stack` is given.
 */
export async function withCommandContext<T>(flags: GlobalFlags, fn: (ctx: CommandContext) => Promise<T>): Promise<T> {
  // What a command does not use is loaded when first used: a command starts in the time its own modules take (bench:cli).
  const localCluster = flags.cluster ? await import('./localClusterConfig.ts') : undefined;
  const { config, source } = loadConfig(flags.config, localCluster?.withLocalCluster);
  const logger = createCliLogger();
  logger.debug({ source }, 'config loaded');
  if (localCluster) await localCluster.ensureLocalCluster((line) => console.error(`[stack] ${line}`));
  const stack = await commandStack({ keepStack: flags.keepStack ?? true, cluster: config.cluster });
  let kafka: Promise<KafkaPort> | undefined;
  let store: Promise<TwoLevelMapStore> | undefined;
  let registry: Promise<SchemaRegistry> | undefined;
  try {
    return await fn({
      config,
      endpoints: stack.endpoints,
      kafka: () => (kafka ??= import('./connectKafka.ts').then(({ connectKafka }) => connectKafka(stack.endpoints, 'edgestream-cli', logger))),
      registry: () => (registry ??= import('./openRegistry.ts').then(({ openRegistry }) => openRegistry(stack.endpoints))),
      logger,
      store: () => (store ??= import('./openStore.ts').then(({ openStore }) => openStore(stack.endpoints, config))),
    });
  } finally {
    if (store) await (await store.catch(() => undefined))?.close();
    await stack.release();
  }
}
