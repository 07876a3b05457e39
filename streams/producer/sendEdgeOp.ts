import type { CommonArgs, EdgeArgs, EdgeValueArgs, Properties } from './buildMutation.ts';
import type { EdgeProducer, SentMutation } from './createEdgeProducer.ts';

/** One mutation as data (an NDJSON line, an HTTP body): the op name plus the SDK call's arguments. */
export type EdgeOpArgs =
  | (EdgeValueArgs & { readonly op: 'ADD_EDGE'; readonly properties?: Properties })
  | (EdgeArgs & { readonly op: 'REMOVE_EDGE' })
  | (EdgeValueArgs & { readonly op: 'HIDE_EDGE' })
  | (EdgeValueArgs & { readonly op: 'UNHIDE_EDGE' })
  | (EdgeArgs & { readonly op: 'SET_PROPERTIES'; readonly properties: Properties })
  | (EdgeArgs & { readonly op: 'REMOVE_PROPERTIES'; readonly keys: readonly string[] })
  | (CommonArgs & { readonly op: 'REMOVE_NODE'; readonly vertex: string });

/** Sends one op through the SDK call of its name (which validates it and fills ids and times). */
export function sendEdgeOp(producer: EdgeProducer, op: EdgeOpArgs): Promise<SentMutation> {
  switch (op.op) {
    case 'ADD_EDGE':
      return producer.addEdge({ ...op, properties: op.properties ?? {} });
    case 'REMOVE_EDGE':
      return producer.removeEdge(op);
    case 'HIDE_EDGE':
      return producer.hideEdge(op);
    case 'UNHIDE_EDGE':
      return producer.unhideEdge(op);
    case 'SET_PROPERTIES':
      return producer.setProperties(op);
    case 'REMOVE_PROPERTIES':
      return producer.removeProperties(op);
    case 'REMOVE_NODE':
      return producer.removeNode(op);
    default: {
      const never: never = op;
      throw new Error(`unknown op ${JSON.stringify(never)}`);
    }
  }
}
