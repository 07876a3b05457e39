import type { NamespaceConfigInput } from '../store/storeConfig.ts';
import {
  edgePropsNamespace,
  forwardLinkNamespace,
  forwardRecentNamespace,
  reverseLinkNamespace,
  reverseRecentNamespace,
} from './edgeTypeNamespaces.ts';
import { DEGREE_DIRTY_NAMESPACE, DEGREES_NAMESPACE, NODE_TOMBSTONES_NAMESPACE } from './globalNamespaces.ts';

/**
 * Every namespace the write path needs for these edge types, in the shape of
 * `sinks/store` `namespacesSchema`. Only property bags may hold large values
 * (a bytes property); every other value is small and bounded by the event
 * limits, so chunking (one extra write per put) is off for them.
 */
export function edgestreamNamespaces(config: { readonly edgeTypes: readonly { readonly name: string }[] }): NamespaceConfigInput[] {
  const perType = config.edgeTypes.flatMap(({ name }): NamespaceConfigInput[] => [
    { name: forwardLinkNamespace(name), chunking: false },
    { name: reverseLinkNamespace(name), chunking: false },
    { name: forwardRecentNamespace(name), chunking: false },
    { name: reverseRecentNamespace(name), chunking: false },
    { name: edgePropsNamespace(name), chunking: true },
  ]);
  return [
    ...perType,
    { name: NODE_TOMBSTONES_NAMESPACE, chunking: false },
    { name: DEGREE_DIRTY_NAMESPACE, chunking: false },
    { name: DEGREES_NAMESPACE, chunking: false },
  ];
}
