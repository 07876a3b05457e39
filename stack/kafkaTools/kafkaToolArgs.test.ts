import { describe, expect, it } from 'vitest';
import { kafkaToolJavaArgs, kafkaToolNamed, withDefaultBootstrap } from './kafkaToolArgs.ts';

describe('kafka tool names', () => {
  it('accepts the short name, the script name and the .sh name; refuses others', () => {
    expect(kafkaToolNamed('console-consumer')).toBe('console-consumer');
    expect(kafkaToolNamed('kafka-consumer-groups')).toBe('consumer-groups');
    expect(kafkaToolNamed('kafka-topics.sh')).toBe('topics');
    expect(kafkaToolNamed('kafka-server-start')).toBeUndefined();
    expect(kafkaToolNamed('toString')).toBeUndefined();
  });
});

describe('the default bootstrap server', () => {
  it('is put in front when the arguments name no brokers', () => {
    expect(withDefaultBootstrap(['--list'], ['127.0.0.1:19092', 'b:9092'])).toEqual({ args: ['--bootstrap-server', '127.0.0.1:19092,b:9092', '--list'], defaulted: true });
  });

  it('is left out when the arguments name brokers, in either spelling', () => {
    for (const args of [['--list', '--bootstrap-server', 'x:1'], ['--bootstrap-server=x:1'], ['--broker-list', 'x:1', '--topic', 't']]) {
      expect(withDefaultBootstrap(args, ['127.0.0.1:19092'])).toEqual({ args, defaulted: false });
    }
  });
});

describe('the java command line of a tool', () => {
  it('runs the tool main class on the classpath with a small heap and the tools log config', () => {
    const args = kafkaToolJavaArgs({ tool: 'consumer-groups', args: ['--list'], classpath: ['/c/lib/*', '/c/classes'], log4jFile: '/c/log4j.properties' });
    expect(args.slice(-4)).toEqual(['-cp', '/c/lib/*:/c/classes', 'org.apache.kafka.tools.consumer.group.ConsumerGroupCommand', '--list']);
    expect(args).toContain('-Xmx128m');
    expect(args).toContain('-Dlog4j.configuration=file:/c/log4j.properties');
  });
});
