import { afterEach, describe, expect, it } from 'vitest';
import { Counter } from 'prom-client';
import { createMetricsRegistry } from './createMetricsRegistry.ts';
import { startMetricsServer, type MetricsServer } from './startMetricsServer.ts';

describe('startMetricsServer', () => {
  const servers: MetricsServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('answers GET /metrics in the Prometheus text format and 404 elsewhere', async () => {
    const registry = createMetricsRegistry({ processMetrics: false });
    new Counter({ name: 'edgestream_test_total', help: 'a test counter', registers: [registry] }).inc(3);
    const server = await startMetricsServer({ registry, port: 0, host: '127.0.0.1' });
    servers.push(server);
    const ok = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await ok.text()).toMatch(/^edgestream_test_total 3$/m);
    expect((await fetch(`http://127.0.0.1:${server.port}/other`)).status).toBe(404);
  });

  it('rejects with EADDRINUSE when the port is taken', async () => {
    const registry = createMetricsRegistry({ processMetrics: false });
    const first = await startMetricsServer({ registry, port: 0, host: '127.0.0.1' });
    servers.push(first);
    await expect(startMetricsServer({ registry, port: first.port, host: '127.0.0.1' })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
