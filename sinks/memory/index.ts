// The in-memory backend of the two-level map port (tests and pure-logic checks).
export { createMemoryStore } from './createMemoryStore.ts';
export type { MemoryStoreConfig } from './createMemoryStore.ts';
