import { describe, expect, it } from 'vitest';
import { defaultEdgestreamConfig, directoryMaxStaleMs, parseEdgestreamConfig, repairSpanMs, resurrectionHorizonMs, splitMirrorBarrierMs } from './edgestreamConfig.ts';

describe('parseEdgestreamConfig', () => {
  it('fills defaults', () => {
    const c = defaultEdgestreamConfig();
    expect(c.topics.prefix).toBe('edgestream.');
    expect(c.cassandra.keyspace).toBe('edgestream');
    expect(c.limits.maxVertexIdBytes).toBe(256);
    expect(c.limits.maxRecordBytes).toBe(1 << 20);
    expect(c.edgeTypes.map((t) => t.name)).toEqual(['follows', 'likes']);
  });

  it('names the bad field', () => {
    expect(() => parseEdgestreamConfig({ edgeTypes: [{ name: 'Follows' }] })).toThrow(/edgeTypes\.0\.name: must be a lowercase identifier/);
    expect(() => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], runtime: { writeConcurrency: 0 } })).toThrow(/runtime\.writeConcurrency/);
    expect(() => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], bogus: 1 })).toThrow(/bogus/);
  });

  it('recounts by delta unless runtime.recountMode says full, and names the field of a bad mode', () => {
    expect(defaultEdgestreamConfig().runtime.recountMode).toBe('delta');
    expect(parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], runtime: { recountMode: 'full' } }).runtime.recountMode).toBe('full');
    expect(() => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], runtime: { recountMode: 'incremental' } })).toThrow(/runtime\.recountMode/);
  });

  it('batches the input fetch by default (32 KiB or 100 ms), and names the field of a bad value', () => {
    expect(defaultEdgestreamConfig().runtime.inputFetch).toEqual({ minBytes: 32_768, maxWaitMs: 100 });
    expect(parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], runtime: { inputFetch: { minBytes: 1 } } }).runtime.inputFetch).toEqual({ minBytes: 1, maxWaitMs: 100 });
    expect(() => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], runtime: { inputFetch: { maxWaitMs: 0 } } })).toThrow(/runtime\.inputFetch\.maxWaitMs/);
    expect(() => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], runtime: { inputFetch: { minBytes: 2 ** 21 } } })).toThrow(/runtime\.inputFetch\.minBytes/);
  });

  it('edge types are directed unless declared symmetric', () => {
    const c = parseEdgestreamConfig({ edgeTypes: [{ name: 'follows' }, { name: 'friends', symmetric: true }] });
    expect(c.edgeTypes).toEqual([{ name: 'follows', symmetric: false }, { name: 'friends', symmetric: true }]);
    expect(() => parseEdgestreamConfig({ edgeTypes: [{ name: 'friends', symmetric: 'yes' }] })).toThrow(/edgeTypes\.0\.symmetric/);
  });

  it('derives the resurrection horizon from gc_grace_seconds and keeps topic retention within it', () => {
    const cfg = (retention: Record<string, number>) => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], retention });
    expect(resurrectionHorizonMs(defaultEdgestreamConfig())).toBe(9 * 86_400_000); // 10 days − 1 day
    expect(resurrectionHorizonMs(cfg({ gcGraceSeconds: 7_200, replaySafetyMarginSeconds: 3_600, topicRetentionMs: 3_600_000 }))).toBe(3_600_000);
    expect(() => cfg({ gcGraceSeconds: 86_400, replaySafetyMarginSeconds: 86_400 })).toThrow(/retention\.replaySafetyMarginSeconds: must be less than retention\.gcGraceSeconds/);
    expect(() => cfg({ topicRetentionMs: 10 * 86_400_000 })).toThrow(/retention\.topicRetentionMs: must be at most the resurrection horizon.* = 777600000 ms/);
    expect(() => cfg({ gcGraceSeconds: 60 })).toThrow(/retention\.gcGraceSeconds/);
  });

  it('rejects duplicate and double-underscore edge types', () => {
    expect(() => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }, { name: 'a' }] })).toThrow(/duplicate edge type 'a'/);
    expect(() => parseEdgestreamConfig({ edgeTypes: [{ name: 'a__b' }] })).toThrow(/edgeTypes\.0\.name/);
  });

  it('requires the cascade settle time to cover twice the write-retry budget plus the tombstone cache ttl', () => {
    const cfg = (runtime: Record<string, number>) => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], runtime });
    expect(cfg({ writeRetryBudgetMs: 1_000, writeLandingMarginMs: 0, tombstoneCacheTtlMs: 300, cascadeSettleMs: 2_500 }).runtime.tombstoneCacheTtlMs).toBe(300);
    // The old rule (budget + ttl) accepted this: the tombstone's own write may land a budget after its stamp.
    expect(() => cfg({ writeRetryBudgetMs: 1_000, writeLandingMarginMs: 0, tombstoneCacheTtlMs: 300, cascadeSettleMs: 1_500 })).toThrow(
      /runtime\.cascadeSettleMs: must be greater than 2 × \(runtime\.writeRetryBudgetMs \+ runtime\.writeLandingMarginMs\) \+ runtime\.tombstoneCacheTtlMs/,
    );
  });

  it('requires the record size limit to exceed the property bag limit', () => {
    const cfg = (limits: Record<string, number>) => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], limits });
    expect(cfg({ maxPropertyBagBytes: 1 << 20, maxRecordBytes: 2 << 20 }).limits.maxRecordBytes).toBe(2 << 20);
    expect(() => cfg({ maxPropertyBagBytes: 1 << 20 })).toThrow(/limits\.maxRecordBytes: must be greater than limits\.maxPropertyBagBytes/);
  });

  it('requires the cascade give-up time to cover the repair path, which may still write a tombstone', () => {
    const cfg = (runtime: Record<string, number>) => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], runtime });
    const repair = { writeRetryBudgetMs: 1_000, repairMaxAttempts: 3, repairInitialBackoffMs: 500, repairMaxBackoffMs: 1_500 };
    const span = 1_000 + (500 + 1_000) + (1_000 + 1_000) + (1_500 + 1_000); // the back-off is capped on the third attempt
    expect(repairSpanMs(repair)).toBe(span);
    expect(cfg({ ...repair, cascadeGiveUpAfterMs: span }).runtime.cascadeGiveUpAfterMs).toBe(span);
    expect(() => cfg({ ...repair, cascadeGiveUpAfterMs: span - 1 })).toThrow(/runtime\.cascadeGiveUpAfterMs: must be at least the repair path's span/);
    expect(repairSpanMs(defaultEdgestreamConfig().runtime)).toBeLessThan(defaultEdgestreamConfig().runtime.cascadeGiveUpAfterMs);
  });

  it('bounds the split directory staleness at two or more refresh periods, and the mirror barrier grows with it', () => {
    const wide = (w: Record<string, number>) => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], wide: w });
    expect(() => wide({ directoryMaxStaleRefreshes: 1 })).toThrow(/wide\.directoryMaxStaleRefreshes/);
    expect(() => wide({ directoryMaxStaleRefreshes: 2.5 })).toThrow(/wide\.directoryMaxStaleRefreshes/);
    const c = wide({ directoryRefreshMs: 1_000, directoryMaxStaleRefreshes: 4 });
    expect(directoryMaxStaleMs(c)).toBe(4_000);
    expect(splitMirrorBarrierMs(c)).toBe(4_000 + c.runtime.writeRetryBudgetMs + c.runtime.writeLandingMarginMs);
  });

  it('defaults the split directory change-log lookback and full-reload period, naming a bad one', () => {
    const wide = (w: Record<string, number>) => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], wide: w });
    expect(wide({}).wide).toMatchObject({ directoryLogLookbackMs: 30_000, directoryRebuildMs: 600_000 });
    expect(() => wide({ directoryLogLookbackMs: -1 })).toThrow(/wide\.directoryLogLookbackMs/);
    expect(() => wide({ directoryRebuildMs: 10 })).toThrow(/wide\.directoryRebuildMs/);
  });

  it('validates the server section, naming the field', () => {
    const c = defaultEdgestreamConfig();
    expect(c.server).toMatchObject({ port: 8080, host: '127.0.0.1', readYourWritesTimeoutMs: 5_000 });
    const server = (s: Record<string, unknown>) => () => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], server: s });
    expect(server({ port: 70_000 })).toThrow(/server\.port/);
    expect(server({ bodyLimitBytes: 10 })).toThrow(/server\.bodyLimitBytes/);
    expect(server({ readYourWritesTimeoutMs: -1 })).toThrow(/server\.readYourWritesTimeoutMs/);
    expect(server({ rateLimit: 5 })).toThrow(/rateLimit/);
  });

  it('declares read budgets with defaults and names a bad one', () => {
    const c = defaultEdgestreamConfig();
    expect(c.reads).toEqual({
      maxRows: 200_000,
      maxQueries: 20_000,
      deadlineMs: 10_000,
      maxCursorBytes: 2_048,
      traversal: { perHopCap: 1_000, concurrencyPerReplicaSet: 8, maxInFlight: 64 },
    });
    const cfg = (reads: unknown) => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], reads });
    expect(() => cfg({ maxRows: 0 })).toThrow(/reads\.maxRows: /);
    expect(() => cfg({ deadlineMs: 1.5 })).toThrow(/reads\.deadlineMs: /);
    expect(() => cfg({ maxCursorBytes: 10 })).toThrow(/reads\.maxCursorBytes: /);
    expect(() => cfg({ traversal: { perHopCap: 100_001 } })).toThrow(/reads\.traversal\.perHopCap: /);
    expect(cfg({ maxRows: 5 }).reads.maxRows).toBe(5);
  });

  it('counts the time a write may still land after the retry budget (the server\'s write timeout and pauses) twice in the cascade settle rule', () => {
    const cfg = (runtime: Record<string, number>) => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], runtime });
    // 2 × (1000 + 2000 default margin) + 300 = 6300: the old rule (2 × budget + ttl = 2300) accepted 2500.
    expect(() => cfg({ writeRetryBudgetMs: 1_000, tombstoneCacheTtlMs: 300, cascadeSettleMs: 2_500 })).toThrow(/runtime\.cascadeSettleMs: .*writeLandingMarginMs/);
    expect(cfg({ writeRetryBudgetMs: 1_000, tombstoneCacheTtlMs: 300, cascadeSettleMs: 6_301 }).runtime.writeLandingMarginMs).toBe(2_000);
    expect(() => cfg({ writeRetryBudgetMs: 1_000, tombstoneCacheTtlMs: 300, writeLandingMarginMs: 500, cascadeSettleMs: 3_300 })).toThrow(/runtime\.cascadeSettleMs/);
    expect(cfg({ writeRetryBudgetMs: 1_000, tombstoneCacheTtlMs: 300, writeLandingMarginMs: 500, cascadeSettleMs: 3_301 }).runtime.cascadeSettleMs).toBe(3_301);
  });

  it('waits out the retry budget and the landing margin before the splitter copies', () => {
    const c = parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], runtime: { writeRetryBudgetMs: 1_000, writeLandingMarginMs: 3_000, cascadeSettleMs: 30_000 }, wide: { directoryRefreshMs: 500 } });
    expect(splitMirrorBarrierMs(c)).toBe(3 * 500 + 1_000 + 3_000); // directoryMaxStaleRefreshes (3) × refresh + budget + margin
  });
});


describe('replication, consistency and topic durability', () => {
  const cfg = (over: Record<string, unknown>) => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], ...over });

  it('keeps today\'s store settings by default: SimpleStrategy RF 1, LOCAL_QUORUM, one in-sync replica', () => {
    const c = defaultEdgestreamConfig();
    expect(c.cassandra.replication).toEqual({ class: 'SimpleStrategy', replicationFactor: 1 });
    expect(c.cassandra.consistency).toEqual({ writes: 'LOCAL_QUORUM', reads: 'LOCAL_QUORUM', serial: 'LOCAL_SERIAL' });
    expect([c.topics.replicationFactor, c.topics.minInsyncReplicas]).toEqual([1, 1]);
  });

  it('reads replicationFactor as the SimpleStrategy shorthand and replication per data centre', () => {
    expect(cfg({ cassandra: { replicationFactor: 3 } }).cassandra.replication).toEqual({ class: 'SimpleStrategy', replicationFactor: 3 });
    const nts = cfg({ cassandra: { replication: { class: 'NetworkTopologyStrategy', dataCenters: { dc1: 3, dc2: 2 } }, consistency: { reads: 'QUORUM' } } });
    expect(nts.cassandra.replication).toEqual({ class: 'NetworkTopologyStrategy', dataCenters: { dc1: 3, dc2: 2 } });
    expect(nts.cassandra.consistency).toEqual({ writes: 'LOCAL_QUORUM', reads: 'QUORUM', serial: 'LOCAL_SERIAL' });
  });

  it.each([
    [{ cassandra: { replicationFactor: 3, replication: { class: 'SimpleStrategy', replicationFactor: 3 } } }, /cassandra\.replication: give either cassandra\.replication or cassandra\.replicationFactor/],
    [{ cassandra: { replication: { class: 'NetworkTopologyStrategy', dataCenters: {} } } }, /cassandra\.replication\.dataCenters: at least one data center/],
    [{ cassandra: { replication: { class: 'OldNetworkTopologyStrategy' } } }, /cassandra\.replication\.class/],
    [{ cassandra: { consistency: { writes: 'EACH_QUORUM' } } }, /cassandra\.consistency\.writes/],
    [{ cassandra: { consistency: { serial: 'LOCAL_QUORUM' } } }, /cassandra\.consistency\.serial/],
    [{ cassandra: { consistency: { level: 'ONE' } } }, /cassandra\.consistency.*level/],
    [{ topics: { replicationFactor: 2, minInsyncReplicas: 3 } }, /topics\.minInsyncReplicas: must be at most topics\.replicationFactor/],
  ])('names the field of a bad setting (%#)', (over, message) => {
    expect(() => cfg(over)).toThrow(message);
  });
});

describe('cluster', () => {
  const cluster = {
    kafka: { brokers: ['k1:9093', 'k2:9093'], tls: { caFile: 'ca.pem' }, sasl: { mechanism: 'scram-sha-512', username: 'es', passwordFile: '/run/secrets/kafka' } },
    schemaRegistry: { url: 'https://registry:8081', auth: { basic: { username: 'es', passwordEnv: 'REGISTRY_PASSWORD' } } },
    cassandra: { contactPoints: ['c1:9042'], localDataCenter: 'dc1', auth: { username: 'es', passwordFile: '/run/secrets/cassandra' } },
  };
  const cfg = (c: unknown) => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], cluster: c });

  it('is absent by default and parsed as the agreed shape when given', () => {
    expect(defaultEdgestreamConfig().cluster).toBeUndefined();
    const c = cfg(cluster).cluster!;
    expect(c.kafka.tls).toEqual({ caFile: 'ca.pem', rejectUnauthorized: true });
    expect(c.schemaRegistry.auth?.basic?.passwordEnv).toBe('REGISTRY_PASSWORD');
  });

  it.each([
    [{ ...cluster, kafka: { ...cluster.kafka, sasl: { mechanism: 'plain', username: 'es', password: 'hunter2' } } }, /cluster\.kafka\.sasl\.password: a secret is never inline: give passwordEnv .* or passwordFile/],
    [{ ...cluster, cassandra: { ...cluster.cassandra, auth: { username: 'es', password: 'hunter2' } } }, /cluster\.cassandra\.auth\.password: a secret is never inline/],
    [{ ...cluster, schemaRegistry: { ...cluster.schemaRegistry, auth: { bearer: { token: 't' } } } }, /cluster\.schemaRegistry\.auth\.bearer\.token: a secret is never inline: give tokenEnv/],
    [{ ...cluster, cassandra: { ...cluster.cassandra, auth: { username: 'es', passwordEnv: 'A', passwordFile: 'b' } } }, /cluster\.cassandra\.auth\.passwordEnv: give exactly one of passwordEnv or passwordFile/],
    [{ ...cluster, schemaRegistry: { url: 'https://r', auth: {} } }, /cluster\.schemaRegistry\.auth: give exactly one of basic or bearer/],
    [{ ...cluster, kafka: { brokers: ['no-port'] } }, /cluster\.kafka\.brokers\.0: expected host:port/],
    [{ ...cluster, kafka: { ...cluster.kafka, tls: { certFile: 'c.pem' } } }, /cluster\.kafka\.tls\.keyFile: give certFile and keyFile together/],
    [{ kafka: cluster.kafka, schemaRegistry: cluster.schemaRegistry }, /cluster\.cassandra/],
    [{ ...cluster, cassandra: { ...cluster.cassandra, localDc: 'dc1' } }, /localDc/],
  ])('names the field of a bad cluster section (%#)', (c, message) => {
    expect(() => cfg(c)).toThrow(message);
  });

  it('never echoes an inline secret', () => {
    expect(() => cfg({ ...cluster, kafka: { ...cluster.kafka, sasl: { mechanism: 'plain', username: 'es', password: 'hunter2' } } })).not.toThrow(/hunter2/);
  });
});
