import { describe, expect, it } from 'vitest';
import { loadStackConfig } from './stackConfig.ts';
import { kafkaServerProperties } from './servers/kafkaServer.ts';
import { cassandraYaml } from './servers/cassandraServer.ts';

describe('loadStackConfig', () => {
  it('shifts every port by EDGESTREAM_STACK_PORT_OFFSET', () => {
    const base = loadStackConfig({}, '/repo');
    const shifted = loadStackConfig({ EDGESTREAM_STACK_PORT_OFFSET: '100' }, '/repo');
    for (const [name, port] of Object.entries(base.ports)) {
      expect(shifted.ports[name as keyof typeof base.ports]).toBe(port + 100);
    }
    expect(base.runDir).toBe('/repo/.stack');
  });

  it('rejects a bad offset naming the variable', () => {
    expect(() => loadStackConfig({ EDGESTREAM_STACK_PORT_OFFSET: 'ten' }, '/r')).toThrow(/EDGESTREAM_STACK_PORT_OFFSET/);
    expect(() => loadStackConfig({ EDGESTREAM_STACK_PORT_OFFSET: '60000' }, '/r')).toThrow(/exceeds 65535/);
  });
});

describe('server config templates', () => {
  const config = loadStackConfig({ EDGESTREAM_STACK_PORT_OFFSET: '7' }, '/r');

  it('binds Kafka listeners to 127.0.0.1 on the configured ports', () => {
    const props = kafkaServerProperties(config, '/data');
    expect(props).toContain(`listeners=PLAINTEXT://127.0.0.1:${config.ports.kafka},CONTROLLER://127.0.0.1:${config.ports.kafkaController}`);
    expect(props).toContain(`controller.quorum.voters=1@127.0.0.1:${config.ports.kafkaController}`);
    expect(props).toContain('log.dirs=/data');
  });

  it('points Cassandra at its own ports and data dir', () => {
    const yaml = cassandraYaml(config, '/d');
    expect(yaml).toContain(`native_transport_port: ${config.ports.cassandraCql}`);
    expect(yaml).toContain(`seeds: "127.0.0.1:${config.ports.cassandraStorage}"`);
    expect(yaml).toContain('commitlog_directory: /d/commitlog');
  });
});
