import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  /** The port it listens on (the one asked for, or the one the OS chose for 0). */
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The exposition of a processor process: `GET /metrics` answers the registry
 * in the Prometheus text format; every other path is a 404. Resolves once
 * listening; rejects with the listen error (e.g. EADDRINUSE) otherwise. The
 * HTTP API server exposes the same registry through its own routes instead.
 */
export async function startMetricsServer(opts: { readonly registry: Registry; readonly port: number; readonly host?: string }): Promise<MetricsServer> {
  const { registry } = opts;
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (body) => res.writeHead(200, { 'content-type': registry.contentType }).end(body),
      (e: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`collecting metrics failed: ${e instanceof Error ? e.message : String(e)}\n`),
    );
  });
  server.keepAliveTimeout = 65_000; // longer than a scraper's idle timeout, so a reused connection is not cut mid-request
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}
