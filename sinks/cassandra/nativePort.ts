/**
 * cassandra-driver reaches the contact points on their own ports but every node it discovers
 * (system.peers) on `protocolOptions.port`, 9042 unless set: on a cluster listening elsewhere
 * the driver would know the other nodes only at a port where nothing answers, and lose the
 * cluster with its first contact point. So the port the contact points share is passed on.
 * Returns undefined when no contact point names a port; throws when they name different ones
 * (the driver has one port for every discovered node).
 */
export function sharedNativePort(contactPoints: readonly string[]): number | undefined {
  const ports = new Set(contactPoints.map((p) => /:(\d+)$/.exec(p)?.[1]).filter((p): p is string => p !== undefined).map(Number));
  if (ports.size > 1) {
    throw new Error(`contactPoints: every node must listen on the same native port (cassandra-driver reaches the nodes it discovers on one port), got ${[...ports].join(', ')}`);
  }
  const [port] = ports;
  return port;
}

/** `protocolOptions` for cassandra-driver's Client from the contact points (see sharedNativePort). */
export function nativePortOptions(contactPoints: readonly string[]): { protocolOptions?: { port: number } } {
  const port = sharedNativePort(contactPoints);
  return port === undefined ? {} : { protocolOptions: { port } };
}
