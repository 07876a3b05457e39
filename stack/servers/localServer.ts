import type { StackConfig } from '../stackConfig.ts';

/** How to launch one server process, once its files are in place. */
export interface LaunchPlan {
  readonly bin: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

export interface ServerContext {
  readonly config: StackConfig;
  /** This server's private dir under the run dir: conf, data, log. */
  readonly dir: string;
  /** JVM system property unique to this server + run dir, so pids are never confused. */
  readonly marker: string;
}

/** One server of the local stack: provisioning, launch and a real readiness probe. */
export interface LocalServer {
  /** 'cassandra' | 'kafka' | 'registry' in the single-node stack; 'cassandra-2' etc. in the local cluster. */
  readonly name: string;
  /** The address it binds (default 127.0.0.1): the local cluster's nodes share ports on 127.0.0.1/.2/.3. */
  readonly host?: string;
  /** Ports it binds on its host; checked free before launch. */
  ports(config: StackConfig): readonly number[];
  /** Downloads (cached), writes config files, makes fresh data dirs, picks a JVM. */
  prepare(ctx: ServerContext): Promise<LaunchPlan>;
  /** True once the server answers a real client request. */
  ready(config: StackConfig): Promise<boolean>;
}
