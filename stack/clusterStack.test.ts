import { describe, expect, it } from 'vitest';
import { CLUSTER_SERVERS, clusterCassandraNodes, clusterEndpoints, clusterProjectConfig, loadClusterStackConfig } from './clusterStack.ts';
import { cassandraYaml, SINGLE_NODE, systemDurabilityFlags } from './servers/cassandraServer.ts';
import { kafkaServerProperties } from './servers/kafkaServer.ts';

const config = loadClusterStackConfig({}, '/repo');

describe('the local cluster', () => {
  it('lives in its own dir and port range, with small heaps', () => {
    expect(config.runDir).toBe('/repo/.stack-cluster');
    expect(config.ports.cassandraCql).toBe(19242);
    expect(config.ports.kafka).toBe(19292);
    expect(config.heapMiB).toEqual({ cassandra: 384, kafka: 256, registry: 256 });
    expect(loadClusterStackConfig({ EDGESTREAM_CLUSTER_PORT_OFFSET: '300', EDGESTREAM_CLUSTER_DIR: '/x' }, '/repo')).toMatchObject({ runDir: '/x', ports: { kafka: 19392 } });
  });

  it('has three Cassandra nodes and three brokers on 127.0.0.1-3, the seed first, plus the registry', () => {
    expect(CLUSTER_SERVERS.map((s) => `${s.name}@${s.host ?? '127.0.0.1'}`)).toEqual([
      'cassandra-1@127.0.0.1', 'kafka-1@127.0.0.1', 'kafka-2@127.0.0.2', 'kafka-3@127.0.0.3', 'registry@127.0.0.1', 'cassandra-2@127.0.0.2', 'cassandra-3@127.0.0.3',
    ]);
    expect(clusterEndpoints(config).cassandraContactPoints).toEqual(['127.0.0.1:19242', '127.0.0.2:19242', '127.0.0.3:19242']);
  });

  it('writes each node its own address and token, every one seeded by 127.0.0.1', () => {
    const yaml = cassandraYaml(config, '/d', { name: 'cassandra-3', clusterName: 'c', address: '127.0.0.3', seed: '127.0.0.1', initialToken: '3074457345618258602', memtableOffheapMiB: 256, crashSafe: true });
    expect(yaml).toContain('listen_address: 127.0.0.3\nrpc_address: 127.0.0.3');
    expect(yaml).toContain('seeds: "127.0.0.1:19270"');
    expect(yaml).toContain('initial_token: "3074457345618258602"');
    expect(yaml).toContain('memtable_offheap_space: 256MiB');
  });

  // A node killed with -Dcassandra.unsafesystem forgot the tables created since its last schema
  // flush and skipped their writes on replay: the two-node kill of clusterFaults.test.ts lost data.
  it('keeps the system tables durable on every node (the fault tests SIGKILL them); only the throwaway single node trades that for speed', () => {
    expect(clusterCassandraNodes.map(systemDurabilityFlags)).toEqual([[], [], []]);
    expect(systemDurabilityFlags(SINGLE_NODE)).toEqual(['-Dcassandra.unsafesystem=true']);
  });

  it('makes every broker a voter and replicates the internal topics 3 ways with min.insync.replicas 2', () => {
    const props = kafkaServerProperties(config, '/d', {
      name: 'kafka-2', nodeId: 2, address: '127.0.0.2', voterAddresses: ['127.0.0.1', '127.0.0.2', '127.0.0.3'], replicationFactor: 3, minInsyncReplicas: 2, clusterId: () => 'x',
    });
    expect(props).toContain('node.id=2\n');
    expect(props).toContain('controller.quorum.voters=1@127.0.0.1:19293,2@127.0.0.2:19293,3@127.0.0.3:19293');
    expect(props).toContain('advertised.listeners=PLAINTEXT://127.0.0.2:19292');
    expect(props).toContain('offsets.topic.replication.factor=3');
    expect(props).toContain('min.insync.replicas=2');
  });

  it('configures the project for RF 3, LOCAL_QUORUM and min.insync.replicas 2', () => {
    expect(clusterProjectConfig(config)).toMatchObject({
      cassandra: { replication: { class: 'NetworkTopologyStrategy', dataCenters: { datacenter1: 3 } }, consistency: { writes: 'LOCAL_QUORUM', reads: 'LOCAL_QUORUM' } },
      topics: { replicationFactor: 3, minInsyncReplicas: 2 },
    });
  });
});
