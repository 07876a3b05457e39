// Split metadata, the split directory (Bloom filter + record cache), the split layout reader and the write-path mirror (docs/architecture.md §6).
export { createWideRowRepository, type WideRowRepository } from './wideRowRepository.ts';
export { createConfiguredSplitDirectory, createSplitDirectory, type DirectoryState, type SplitDirectory, type SplitDirectoryOptions } from './createSplitDirectory.ts';
export { createSplitLayoutReader, createSplitLayoutValueReader, type LayoutPage, type LayoutPageQuery, type SplitLayoutReader } from './createSplitLayoutReader.ts';
export { createSplitMirroringStore } from './createSplitMirroringStore.ts';
export { mirrorMutation } from './mirrorMutation.ts';
