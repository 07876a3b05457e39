import { describe, expect, it } from 'vitest';
import { EdgeOp, type EdgeMutation } from '../../schemas/index.ts';
import { fanOutWaves, newerCell, writtenForwardLink } from './fanOutWaves.ts';

const add = (time: bigint, edgeTime: bigint, id = `m${time}`): EdgeMutation =>
  ({ mutation_id: id, op: EdgeOp.ADD_EDGE, edge_type: 'follows', src: 'a', dst: 'b', event_time: time, edge_time: edgeTime, properties: {}, property_keys: [] }) as EdgeMutation;
const shape = (waves: ReturnType<typeof fanOutWaves>) => waves.map((w) => w.filter((m) => m.namespace !== 'degree_dirty').map((m) => `${m.namespace}/${m.id} +${m.additions.length} -${m.deletions.length}`));

describe('fanOutWaves (the fan-out’s writes for what the raw writer read)', () => {
  it('writes a fresh link, then its entries, when nothing was read', () => {
    expect(shape(fanOutWaves(add(10n, 10n), undefined))).toEqual([
      ['follows_out/a +1 -0', 'follows_in/b +1 -0'],
      ['follows_out_recent/a +1 -0', 'follows_in_recent/b +1 -0'],
    ]);
  });

  it('deletes the superseded entries first when the read finds the link ACTIVE at another edge time', () => {
    const first = add(10n, 10n);
    const current = writtenForwardLink(first, fanOutWaves(first, undefined));
    expect(current?.writeTime).toBe(10n);
    expect(shape(fanOutWaves(add(20n, 20n), current))).toEqual([
      ['follows_out_recent/a +0 -1', 'follows_in_recent/b +0 -1'],
      ['follows_out/a +1 -0', 'follows_in/b +1 -0'],
      ['follows_out_recent/a +1 -0', 'follows_in_recent/b +1 -0'],
    ]);
  });

  it('keeps the newer of two cells, as the store does', () => {
    const older = { key: new Uint8Array([1]), value: new Uint8Array([9]), writeTime: 1n };
    const newer = { key: new Uint8Array([1]), value: new Uint8Array([0]), writeTime: 2n };
    expect(newerCell(older, newer)).toBe(newer);
    expect(newerCell(newer, undefined)).toBe(newer);
    expect(newerCell({ ...newer, value: new Uint8Array([5]) }, newer)?.value).toEqual(new Uint8Array([5]));
  });
});
