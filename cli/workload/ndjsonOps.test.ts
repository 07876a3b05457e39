import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readNdjsonOps, type NdjsonOp } from './ndjsonOps.ts';

async function parse(lines: readonly string[]): Promise<NdjsonOp[]> {
  const file = join(mkdtempSync(join(tmpdir(), 'ndjson-')), 'ops.ndjson');
  writeFileSync(file, lines.join('\n'));
  const ops: NdjsonOp[] = [];
  for await (const op of readNdjsonOps(file)) ops.push(op);
  return ops;
}

describe('readNdjsonOps', () => {
  it('reads HIDE_EDGE, UNHIDE_EDGE and ADD_EDGE with an edge time and base64 data', async () => {
    const ops = await parse([
      '{"op":"ADD_EDGE","type":"likes","src":"a","dst":"p","edgeTime":"9007199254740993","data":"yv4="}',
      '{"op":"HIDE_EDGE","type":"likes","src":"a","dst":"p","edgeTime":1732000000000000}',
      '{"op":"UNHIDE_EDGE","type":"likes","src":"a","dst":"p"}',
    ]);
    expect(ops).toEqual([
      { op: 'ADD_EDGE', type: 'likes', src: 'a', dst: 'p', edgeTime: 9_007_199_254_740_993n, data: Buffer.from([0xca, 0xfe]) },
      { op: 'HIDE_EDGE', type: 'likes', src: 'a', dst: 'p', edgeTime: 1_732_000_000_000_000n },
      { op: 'UNHIDE_EDGE', type: 'likes', src: 'a', dst: 'p' },
    ]);
  });

  it.each([
    ['data that is not base64', '{"op":"HIDE_EDGE","type":"likes","src":"a","dst":"p","data":"not base64!"}', /:1: data: /],
    ['an edge time on REMOVE_EDGE', '{"op":"REMOVE_EDGE","type":"likes","src":"a","dst":"p","edgeTime":1}', /:1: .*edgeTime/],
    ['a fractional edge time', '{"op":"ADD_EDGE","type":"likes","src":"a","dst":"p","edgeTime":1.5}', /:1: edgeTime: /],
  ])('rejects %s, naming the line and field', async (_what, line, message) => {
    await expect(parse([line])).rejects.toThrow(message);
  });
});
