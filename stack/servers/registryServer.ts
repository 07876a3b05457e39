import fs from 'node:fs';
import path from 'node:path';
import { findJava } from '../javaRuntime.ts';
import { ensureUnpackedArchive } from '../mavenArtifacts.ts';
import { StackError } from '../stackError.ts';
import { STACK_VERSIONS, type StackConfig } from '../stackConfig.ts';
import type { LaunchPlan, LocalServer, ServerContext } from './localServer.ts';

/** Apicurio's Confluent-compatible API root, as @kafkajs/confluent-schema-registry expects it. */
export function registryUrl(config: StackConfig): string {
  return `http://127.0.0.1:${config.ports.registryHttp}/apis/ccompat/v7`;
}

/** The runnable jar moves between Apicurio minors (legacy runner, quarkus-app/, root): search for it. */
function findRunnerJar(appDir: string): string | undefined {
  const direct = ['quarkus-run.jar', 'quarkus-app/quarkus-run.jar'].map((p) => path.join(appDir, p));
  const found = direct.find((p) => fs.existsSync(p));
  if (found) return found;
  const runner = fs.readdirSync(appDir).find((f) => f.endsWith('-runner.jar'));
  return runner ? path.join(appDir, runner) : undefined;
}

export const registryServer: LocalServer = {
  name: 'registry',
  ports: (c) => [c.ports.registryHttp, c.ports.registryManagement],

  async prepare(ctx: ServerContext): Promise<LaunchPlan> {
    // Apicurio 3.3 is compiled for Java 21 (class file 65); it will not load on 17.
    const java = await findJava(`Apicurio Registry ${STACK_VERSIONS.apicurio}`, (m) => m >= 21, 'Java 21 or newer');
    const app = await ensureUnpackedArchive(
      ctx.config.cacheDir,
      `apicurio-${STACK_VERSIONS.apicurio}`,
      `io.apicurio:apicurio-registry-app:${STACK_VERSIONS.apicurio}:tar.gz:all`,
    );
    const jar = findRunnerJar(app);
    if (!jar) throw new StackError('START_FAILED', `no runnable jar found in ${app}`);
    const p = ctx.config.ports;
    const heap = ctx.config.heapMiB.registry;
    return {
      bin: java.bin,
      args: [
        ctx.marker,
        `-Xms64m`, `-Xmx${heap}m`, '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1',
        '-Djava.util.logging.manager=org.jboss.logmanager.LogManager',
        '-Dquarkus.http.host=127.0.0.1', `-Dquarkus.http.port=${p.registryHttp}`,
        // 3.2+ opens a management listener on 0.0.0.0:9000 by default: keep it local and off 9000.
        '-Dquarkus.management.host=127.0.0.1', `-Dquarkus.management.port=${p.registryManagement}`,
        '-Dquarkus.http.access-log.enabled=false',
        // Confluent defaults to BACKWARD; it also makes GET /config/{subject} answer BACKWARD, not NONE.
        '-Dapicurio.rules.global.compatibility=BACKWARD',
        // Lookups tolerant of whitespace/key order, as Confluent's are.
        '-Dapicurio.ccompat.use-canonical-hash=true',
        '-jar', jar,
      ],
    };
  },

  async ready(config: StackConfig): Promise<boolean> {
    const res = await fetch(`${registryUrl(config)}/subjects`, { signal: AbortSignal.timeout(2_000) });
    return res.ok;
  },
};
