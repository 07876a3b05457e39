#!/usr/bin/env node
// The `edgestream` command: the composition root (the only place that reads env and files).
import { Command } from 'commander';
import { smokeCommand } from './commands/smoke.ts';

const program = new Command('edgestream')
  .description('A graph edge store built as an event-sourced Kafka pipeline.')
  .showHelpAfterError();

program
  .command('smoke')
  .description('bring up (or find) the stack, round-trip one Avro edge event through Kafka and Cassandra, print each step')
  .option('--keep-stack', 'leave a local stack this command started running', false)
  .action((opts: { keepStack: boolean }) => smokeCommand(opts));

program.parseAsync(process.argv).catch((e: unknown) => {
  console.error(`edgestream: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
