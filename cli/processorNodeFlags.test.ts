import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROCESSOR_NODE_FLAGS } from './processorNodeFlags.ts';

const root = path.resolve(import.meta.dirname, '..');

describe('PROCESSOR_NODE_FLAGS', () => {
  it('are the flags of the bin shebang and of the npm script', () => {
    const shebang = fs.readFileSync(path.join(root, 'bin/edgestream.js'), 'utf8').split('\n')[0];
    expect(shebang).toBe(`#!/usr/bin/env -S node ${PROCESSOR_NODE_FLAGS.join(' ')}`);
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['edgestream']).toBe(`node ${PROCESSOR_NODE_FLAGS.join(' ')} bin/edgestream.js`);
  });
});
