#!/usr/bin/env node
// Experimental processor entry for bench:ingest profiling (see tunedProcessor.ts): like bin/edgestream.js, through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./tunedProcessor.ts');
