#!/usr/bin/env node
// The `edgestream` command: the composition root (the only place that reads env and files).
// Each command loads its modules when it runs (await import), so `--help` and flag errors load only commander.
import { Command, InvalidArgumentError, Option } from 'commander';
import { EDGE_PIPELINE_STAGES, type EdgePipelineStage } from '../streams/topology/edgePipelineStages.ts';
import type { dlqCommand } from './commands/dlq.ts';
import { registerReadCommands } from './commands/readCommands.ts';
import type { replayCommand } from './commands/replay.ts';
import type { GlobalFlags } from './commandContext.ts';
import { withCommandContext } from './lazyCommandContext.ts';

const positiveInt = (flag: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError(`${flag} must be a positive integer, got "${v}"`);
  return n;
};
const tcpPort = (flag: string) => (v: string) => {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 1 || n > 65_535) throw new InvalidArgumentError(`${flag} must be an integer between 1 and 65535, got "${v}"`);
  return n;
};
const tcpPortOrZero = (flag: string) => (v: string) => {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65_535) throw new InvalidArgumentError(`${flag} must be an integer in 0..65535 (0: any free port), got "${v}"`);
  return n;
};
const ratio = (flag: string) => (v: string) => {
  const n = Number(v);
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError(`${flag} must be between 0 and 1, got "${v}"`);
  return n;
};

const program = new Command('edgestream')
  .description('A graph edge store built as an event-sourced Kafka pipeline.')
  .option('-c, --config <file>', 'config file (default: ./edgestream.config.json if present, else built-in defaults)')
  .option('--cluster', 'run on the local 3-node cluster (npm run stack:up -- --cluster; started if needed) at RF 3, LOCAL_QUORUM, min.insync.replicas 2', false)
  .showHelpAfterError();

const globals = (): GlobalFlags => program.opts<GlobalFlags>();

program
  .command('demo')
  .description('the main job (npm start): a social graph with a celebrity through the whole pipeline, the celebrity detected wide by its reads, split and verified, a paired before/after read comparison in a quiet window')
  .option('--followers <n>', 'followers of the celebrity', positiveInt('--followers'), 30_000)
  .option('--users <n>', 'other users (Zipf follows among them)', positiveInt('--users'), 2_000)
  .option('--keep', 'keep the demo keyspace and topics, and keep serving the API (and running the stages) until Ctrl-C', false)
  .option('--port <port>', 'port of the demo\'s edgestream serve (0: any free port)', tcpPortOrZero('--port'), 0)
  .option('--keep-stack', 'leave a local stack this command started running', false)
  .action((o: { followers: number; users: number; keep: boolean; port: number; keepStack: boolean }) => withCommandContext({ ...globals(), keepStack: o.keepStack }, async (ctx) => (await import('./commands/demo.ts')).demoCommand(ctx, o)));

program
  .command('smoke')
  .description('bring up (or find) the stack, round-trip one Avro edge event through Kafka and Cassandra, print each step')
  .option('--keep-stack', 'leave a local stack this command started running', false)
  .action(async (opts: { keepStack: boolean }) => (await import('./commands/smoke.ts')).smokeCommand({ ...opts, config: globals().config }));

program
  .command('init')
  .description('create the topics, register the schemas and create the keyspace and namespaces (idempotent); refuses an existing keyspace or topic that differs from the config, naming each difference')
  .option('--apply', 'change what differs where that is safe (keyspace replication, topic min.insync.replicas) and say what cannot be changed', false)
  .action((o: { apply: boolean }) => withCommandContext(globals(), async (ctx) => (await import('./commands/init.ts')).initCommand({ ...ctx, apply: o.apply })));

program
  .command('run')
  .description(`run processors until SIGTERM/SIGINT: ${EDGE_PIPELINE_STAGES.join(', ')} or all`)
  .argument('[stages...]', 'stages to run', ['all'])
  .option('--metrics-port <port>', 'serve Prometheus metrics on GET http://<host>:<port>/metrics', tcpPort('--metrics-port'))
  .action((stageArgs: string[], o: { metricsPort?: number }) =>
    withCommandContext(globals(), async (ctx) => (await import('./commands/run.ts')).runCommand(ctx, parseStages(stageArgs), o.metricsPort === undefined ? {} : { metricsPort: o.metricsPort })),
  );

program
  .command('produce')
  .description('publish edge mutations from an NDJSON file or a synthetic social graph')
  .option('--file <ndjson>', 'one op per line: {"op":"ADD_EDGE","type":"follows","src":"a","dst":"b","edgeTime":1700000000000000,"data":"<base64>","properties":{...}}; also REMOVE_EDGE, HIDE_EDGE, UNHIDE_EDGE, SET_PROPERTIES, REMOVE_PROPERTIES, REMOVE_NODE')
  .option('--synthetic <events>', 'generate this many synthetic events instead', positiveInt('--synthetic'))
  .option('--users <n>', 'synthetic: vertex count', positiveInt('--users'), 10_000)
  .addOption(new Option('--targets <dist>', 'synthetic: target distribution').choices(['uniform', 'zipf']).default('zipf'))
  .option('--zipf-exponent <s>', 'synthetic: Zipf exponent', Number, 1.1)
  .option('--edge-type <type>', 'synthetic: edge type', 'follows')
  .option('--remove-ratio <r>', 'synthetic: share of unfollows', ratio('--remove-ratio'), 0.05)
  .option('--property-ratio <r>', 'synthetic: share of property updates', ratio('--property-ratio'), 0.05)
  .option('--seed <n>', 'synthetic: PRNG seed', positiveInt('--seed'), 1)
  .action((o: { file?: string; synthetic?: number; users: number; targets: 'uniform' | 'zipf'; zipfExponent: number; edgeType: string; removeRatio: number; propertyRatio: number; seed: number }) => {
    if ((o.file === undefined) === (o.synthetic === undefined)) throw new InvalidArgumentError('give exactly one of --file or --synthetic');
    return withCommandContext(globals(), async (ctx) => {
      const [{ createEdgeProducer }, { createAvroSerde }, { produceCommand }] = await Promise.all([import('../streams/producer/index.ts'), import('../streams/serde/index.ts'), import('./commands/produce.ts')]);
      const producer = createEdgeProducer({ kafka: await ctx.kafka(), serde: createAvroSerde({ registry: await ctx.registry() }), config: ctx.config });
      try {
        const source = o.file !== undefined
          ? { file: o.file }
          : { synthetic: { events: o.synthetic!, users: o.users, targets: o.targets, zipfExponent: o.zipfExponent, edgeType: o.edgeType, removeRatio: o.removeRatio, propertyRatio: o.propertyRatio, seed: o.seed } };
        const sent = await produceCommand(producer, source);
        console.log(`published ${sent} mutation(s)`);
      } finally {
        await producer.close();
      }
    });
  });

const rangeOptions = (c: Command) =>
  c
    .option('--from-offset <o>', '<offset> or <partition>:<offset>[,...] (inclusive)')
    .option('--to-offset <o>', '<offset> or <partition>:<offset>[,...] (exclusive)')
    .option('--from-time <t>', 'ISO-8601 or epoch ms (inclusive)')
    .option('--to-time <t>', 'ISO-8601 or epoch ms (exclusive)');

rangeOptions(
  program
    .command('replay')
    .description('re-publish a range of the input topic, the DLQ (--dlq) or any topic (--topic) into the input topic; safe: processing is idempotent')
    .option('--dlq', 'replay the dead-letter queue', false)
    .option('--topic <name>', 'replay from this topic')
    .option('--dry-run', 'only count what would be replayed', false)
    .option('--force', 'replay even events older than the resurrection horizon (config retention), with a warning', false),
).action((o: Parameters<typeof replayCommand>[2]) =>
  withCommandContext(globals(), async (ctx) => {
    const [{ replayCommand }, { edgeMutationEventTime }, { createAvroSerde }] = await Promise.all([import('./commands/replay.ts'), import('./kafka/edgeMutationEventTime.ts'), import('../streams/serde/index.ts')]);
    await replayCommand(await ctx.kafka(), ctx.config, o, edgeMutationEventTime(createAvroSerde({ registry: await ctx.registry() })));
  }),
);

program
  .command('migrate-bags')
  .description('one-time: move property bags of the old shared-bag layout into per-direction bags (docs/architecture.md §5); safe to repeat')
  .action(() =>
    withCommandContext(globals(), async (ctx) => {
      const { migrateBagsCommand } = await import('./commands/migrateBags.ts');
      const { partitions, moved } = await migrateBagsCommand(ctx.endpoints, ctx.config, await ctx.store());
      console.log(`migrated ${moved} old-layout propert${moved === 1 ? 'y' : 'ies'} in ${partitions} partition(s)`);
    }),
  );

rangeOptions(
  program
    .command('dlq')
    .description('list the dead-letter queue with the reason for each record')
    .option('--json', 'one JSON object per line', false)
    .option('--limit <n>', 'show at most n records', positiveInt('--limit')),
).action((o: Parameters<typeof dlqCommand>[2]) => withCommandContext(globals(), async (ctx) => void (await (await import('./commands/dlq.ts')).dlqCommand(await ctx.kafka(), ctx.config, o))));

program
  .command('lag')
  .description('consumer-group lag of every processor and the repair queue depth')
  .option('--json', 'JSON output', false)
  .action((o: { json: boolean }) =>
    withCommandContext(globals(), async (ctx) => {
      const { lagCommand } = await import('./commands/lag.ts');
      const admin = (await ctx.kafka()).admin();
      await admin.connect();
      try {
        await lagCommand(admin, ctx.config, o);
      } finally {
        await admin.disconnect();
      }
    }),
  );


program
  .command('serve')
  .description('the HTTP API (reads, mutations with consistency tokens, /openapi.json, /healthz, /readyz, /metrics) until SIGTERM/SIGINT, which drains it')
  .option('--port <port>', 'port (default: server.port of the config, 8080)', tcpPortOrZero('--port'))
  .option('--host <host>', 'address to listen on (default: server.host of the config, 127.0.0.1)')
  .action((o: { port?: number; host?: string }) => withCommandContext(globals(), async (ctx) => (await import('./commands/serve.ts')).serveCommand(ctx, o)));

registerReadCommands(program, globals);

program
  .command('splits')
  .description('list the wide partitions the chain knows (wide_rows): status, rows, bytes, buckets, timings, verification')
  .option('--json', 'one JSON array', false)
  .action((o: { json: boolean }) =>
    withCommandContext(globals(), async (ctx) => {
      const [{ splitsCommand }, { createWideRowRepository }] = await Promise.all([import('./commands/splits.ts'), import('../sinks/wide/index.ts')]);
      await splitsCommand(createWideRowRepository(await ctx.store()), ctx.config, o);
    }),
  );

program
  .command('split')
  .description('split a partition now, or re-run a FAILED split (--force re-runs a COMPLETED one); the plan/split/verify stages do the work')
  .argument('<namespace>', 'a link or recent namespace, e.g. follows_in or follows_in_recent')
  .argument('<id>', 'the partition id (the vertex)')
  .option('--force', 're-run a COMPLETED split', false)
  .action((namespace: string, id: string, o: { force: boolean }) =>
    withCommandContext(globals(), async (ctx) => {
      const [{ splitCommand }, { createWideRowRepository }, { createWidePartitionPublisher }, { createAvroSerde }] = await Promise.all([
        import('./commands/splits.ts'),
        import('../sinks/wide/index.ts'),
        import('../streams/producer/index.ts'),
        import('../streams/serde/index.ts'),
      ]);
      const publisher = createWidePartitionPublisher({ kafka: await ctx.kafka(), serde: createAvroSerde({ registry: await ctx.registry() }), config: ctx.config, logger: ctx.logger });
      try {
        await splitCommand({ repository: createWideRowRepository(await ctx.store()), publisher, config: ctx.config }, namespace, id, o);
      } finally {
        await publisher.close();
      }
    }),
  );

function parseStages(args: readonly string[]): EdgePipelineStage[] {
  if (args.length === 0 || args.includes('all')) return [...EDGE_PIPELINE_STAGES];
  for (const a of args) {
    if (!(EDGE_PIPELINE_STAGES as readonly string[]).includes(a)) throw new InvalidArgumentError(`unknown stage "${a}": expected ${EDGE_PIPELINE_STAGES.join(', ')} or all`);
  }
  return args as EdgePipelineStage[];
}

program.parseAsync(process.argv).catch((e: unknown) => {
  console.error(`edgestream: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
