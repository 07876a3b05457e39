/**
 * Kafka's command-line tools as the local stack runs them: which main class each
 * is in the pinned Kafka version (3.9: ConsoleProducer is still in core's
 * `kafka.tools`; the rest moved to `org.apache.kafka.tools` in 3.6–3.8, and
 * ConsoleProducer follows in 4.0), and the java command line that runs one.
 */
export const KAFKA_TOOLS = {
  'console-consumer': 'org.apache.kafka.tools.consumer.ConsoleConsumer',
  'console-producer': 'kafka.tools.ConsoleProducer',
  'consumer-groups': 'org.apache.kafka.tools.consumer.group.ConsumerGroupCommand',
  topics: 'org.apache.kafka.tools.TopicCommand',
  'get-offsets': 'org.apache.kafka.tools.GetOffsetShell',
} as const;

export type KafkaToolName = keyof typeof KAFKA_TOOLS;

/** The tool a name means: `console-consumer`, `kafka-console-consumer` or `kafka-console-consumer.sh`. */
export function kafkaToolNamed(name: string): KafkaToolName | undefined {
  const bare = name.replace(/^kafka-/, '').replace(/\.sh$/, '');
  return Object.hasOwn(KAFKA_TOOLS, bare) ? (bare as KafkaToolName) : undefined;
}

/** Flags with which a tool is already told where the brokers are. */
const BOOTSTRAP_FLAGS = ['--bootstrap-server', '--broker-list'];

/** `args` with `--bootstrap-server <brokers>` in front unless they name brokers themselves. */
export function withDefaultBootstrap(args: readonly string[], brokers: readonly string[]): { args: string[]; defaulted: boolean } {
  const named = args.some((a) => BOOTSTRAP_FLAGS.some((f) => a === f || a.startsWith(`${f}=`)));
  return named ? { args: [...args], defaulted: false } : { args: ['--bootstrap-server', brokers.join(','), ...args], defaulted: true };
}

/** Heap of one tool JVM, in MiB: the console tools hold one batch of records at a time. */
export const KAFKA_TOOL_HEAP_MIB = 128;

/** The java arguments that run `tool` with `args` on `classpath`: a small heap and a fast-starting JIT. */
export function kafkaToolJavaArgs(opts: { readonly tool: KafkaToolName; readonly args: readonly string[]; readonly classpath: readonly string[]; readonly log4jFile: string }): string[] {
  return [
    `-Xmx${KAFKA_TOOL_HEAP_MIB}m`,
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-Djava.awt.headless=true',
    `-Dlog4j.configuration=file:${opts.log4jFile}`,
    '-cp',
    opts.classpath.join(':'),
    KAFKA_TOOLS[opts.tool],
    ...opts.args,
  ];
}
