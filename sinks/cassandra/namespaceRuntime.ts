import type { NamespaceSettings } from '../store/storeConfig.ts';
import type { CassandraSession } from './cassandraSession.ts';
import type { NamespaceStatements } from './namespaceStatements.ts';

/** What the read and write paths of one namespace need: its settings, its CQL and the session. */
export interface NamespaceRuntime {
  readonly settings: NamespaceSettings;
  readonly statements: NamespaceStatements;
  readonly session: CassandraSession;
  readonly tuning: {
    readonly chunkConcurrency: number;
    readonly maxBatchStatements: number;
    readonly maxBatchBytes: number;
    readonly chunkReadAttempts: number;
    readonly readIdsPerRequest: number;
    readonly readKeysPerRequest: number;
    readonly readCellsPerRequest: number;
    readonly mutationConcurrency: number;
  };
}

/** A zero-copy Buffer view: cassandra-driver encodes blobs only from Buffers. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
