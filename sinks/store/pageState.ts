import { StoreError } from './StoreError.ts';
import type { SliceOrder } from './TwoLevelMapStore.ts';

/**
 * Page states are `<a|d>1.<base64url of the last key returned>`: the order
 * letter catches a page state reused with the other order, the `1` leaves
 * room for another format. Every backend uses this, so a page state is not
 * tied to a driver's own paging (which expires with schema changes).
 */
export interface PagePosition {
  readonly order: SliceOrder;
  readonly lastKey: Uint8Array;
}

export function encodePageState(position: PagePosition): string {
  const tag = position.order === 'asc' ? 'a1.' : 'd1.';
  return tag + Buffer.from(position.lastKey).toString('base64url');
}

export function decodePageState(pageState: string, order: SliceOrder): Uint8Array {
  const match = /^([ad])1\.([A-Za-z0-9_-]*)$/.exec(pageState);
  if (!match) throw new StoreError('invalid_argument', `malformed pageState ${JSON.stringify(pageState.slice(0, 40))}`);
  const stateOrder: SliceOrder = match[1] === 'a' ? 'asc' : 'desc';
  if (stateOrder !== order) {
    throw new StoreError('invalid_argument', `pageState was issued for order '${stateOrder}', not '${order}'`);
  }
  return new Uint8Array(Buffer.from(match[2] ?? '', 'base64url'));
}
