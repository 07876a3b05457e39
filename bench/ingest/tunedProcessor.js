#!/usr/bin/env node
// Experimental processor entry for bench:ingest profiling (see tunedProcessor.ts): like bin/edgestream.js, on Node's type stripping.
await import('./tunedProcessor.ts');
