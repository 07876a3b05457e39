/** `items` in ceil(n / most) consecutive batches whose sizes differ by at most one (none for no items). */
export function evenBatches<T>(items: readonly T[], most: number): T[][] {
  const count = Math.ceil(items.length / most);
  return Array.from({ length: count }, (_, i) => items.slice(Math.floor((i * items.length) / count), Math.floor(((i + 1) * items.length) / count)));
}
