/**
 * Node flags for `edgestream` processes. The write path keeps each chunk's
 * events, mutations and driver requests alive for about a second (reads, then
 * writes, then the commit), longer than V8's default 16 MiB semi-space lasts
 * between scavenges, so most of it was promoted and collected by full
 * mark-compacts: 27% of the processor's main thread in a bench:ingest profile.
 * A 64 MiB semi-space lets it die young (16% in the same profile).
 *
 * V8 sizes the young generation when the isolate starts, so these must be on
 * the node command line: `bin/edgestream.js` carries them in its shebang and
 * `npm run edgestream` in its script (processorNodeFlags.test.ts keeps the
 * three in step); whoever spawns `node bin/edgestream.js` passes them.
 */
export const PROCESSOR_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
