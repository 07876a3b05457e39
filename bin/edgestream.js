#!/usr/bin/env -S node --max-semi-space-size=64
// The flags: cli/processorNodeFlags.ts (young generation sized for the write path).
// The `edgestream` command: runs the TypeScript CLI through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
