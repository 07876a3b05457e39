import { BAG_KEY_MARKER, edgePropertyBag, EDGE_ID_SEPARATOR, encodeBagPropertyKey, decodePropertyNameKey } from '../../sinks/namespaces/index.ts';
import type { Cell, Mutation } from '../../sinks/store/TwoLevelMapStore.ts';

/** Which directions of a vertex pair have a link record (`T_out[first][second]`, `T_out[second][first]`). */
export interface PairLinks {
  readonly forward: boolean;
  readonly backward: boolean;
}

/**
 * The one-time move of a `T_props` partition written by the old layout (one bag
 * per vertex pair, keys = bare property names) into the direction-separated
 * layout (docs/architecture.md §5): each old cell is copied, at its own write
 * time, into the bag of every direction it may belong to, and deleted at that
 * time. Old keys never start with 0x00 (names contain no U+0000), new ones always do.
 *
 * The old layout did not record a direction, so: a symmetric type → its one bag;
 * a directed pair with links in one direction → that direction; with links both
 * ways, or none (a property-only edge) → both directions (what readers saw before).
 * Copies keep their write time, so LWW with everything the new layout already
 * holds is unchanged: a newer write wins, a newer bag clear hides the copy.
 * Pure and idempotent; re-running after a partial run converges.
 */
export function legacyBagWrites(edgeType: string, partitionId: string, cells: readonly Cell[], symmetric: boolean, links: PairLinks): Mutation[] {
  const [first = '', second = ''] = partitionId.split(EDGE_ID_SEPARATOR);
  const bags = symmetric
    ? [edgePropertyBag(edgeType, first, second, true)]
    : [
        ...(links.forward || !links.backward ? [edgePropertyBag(edgeType, first, second, false)] : []),
        ...(links.backward || !links.forward ? [edgePropertyBag(edgeType, second, first, false)] : []),
      ];
  return cells
    .filter((cell) => isLegacyKey(cell.key))
    .flatMap((cell): Mutation[] => {
      const name = decodePropertyNameKey(cell.key);
      const base = { namespace: bags[0]!.namespace, id: partitionId, writeTime: cell.writeTime };
      return [
        { ...base, deletions: [], additions: bags.map((bag) => ({ key: encodeBagPropertyKey(bag, name), value: cell.value })) },
        { ...base, deletions: [cell.key], additions: [] },
      ];
    });
}

/** A key of the old layout: a bare property name, never starting with the bag marker 0x00. */
export const isLegacyKey = (key: Uint8Array): boolean => key.length > 0 && key[0] !== BAG_KEY_MARKER;
