#!/usr/bin/env node
// The `edgestream` command: runs the TypeScript CLI through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
