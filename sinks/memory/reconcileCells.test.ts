import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reconcileCells, type StoredCell } from './reconcileCells.ts';

const cell: fc.Arbitrary<StoredCell> = fc.oneof(
  fc.record({ kind: fc.constant('value' as const), writeTime: fc.bigInt({ min: 0n, max: 3n }), value: fc.uint8Array({ maxLength: 2 }) }),
  fc.record({ kind: fc.constant('tombstone' as const), writeTime: fc.bigInt({ min: 0n, max: 3n }) }),
);

describe('reconcileCells (Cassandra cell reconciliation)', () => {
  it.each<[string, StoredCell, StoredCell, StoredCell]>([
    ['the later write wins', { kind: 'value', writeTime: 1n, value: Uint8Array.of(9) }, { kind: 'tombstone', writeTime: 2n }, { kind: 'tombstone', writeTime: 2n }],
    ['a tombstone wins a tie', { kind: 'value', writeTime: 2n, value: Uint8Array.of(9) }, { kind: 'tombstone', writeTime: 2n }, { kind: 'tombstone', writeTime: 2n }],
    [
      'the greater bytes win a tie between values (unsigned)',
      { kind: 'value', writeTime: 2n, value: Uint8Array.of(0x7f) },
      { kind: 'value', writeTime: 2n, value: Uint8Array.of(0x80) },
      { kind: 'value', writeTime: 2n, value: Uint8Array.of(0x80) },
    ],
  ])('%s', (_name, a, b, expected) => {
    expect(reconcileCells(a, b)).toEqual(expected);
    expect(reconcileCells(b, a)).toEqual(expected);
  });

  it('is commutative, associative and idempotent, so arrival order never matters', () => {
    fc.assert(
      fc.property(cell, cell, cell, (a, b, c) => {
        expect(reconcileCells(a, b)).toEqual(reconcileCells(b, a));
        expect(reconcileCells(reconcileCells(a, b), c)).toEqual(reconcileCells(a, reconcileCells(b, c)));
        expect(reconcileCells(a, a)).toEqual(a);
      }),
    );
  });
});
