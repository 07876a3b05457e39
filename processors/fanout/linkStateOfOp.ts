import { LinkState } from '../../sinks/namespaces/index.ts';
import { EdgeOp } from '../../schemas/generated/EdgeMutation.ts';

/** The link state a link op writes (UNHIDE_EDGE is ACTIVE again); undefined for the other ops. */
export function linkStateOfOp(op: EdgeOp): LinkState | undefined {
  switch (op) {
    case EdgeOp.ADD_EDGE:
    case EdgeOp.UNHIDE_EDGE:
      return LinkState.ACTIVE;
    case EdgeOp.HIDE_EDGE:
      return LinkState.HIDDEN;
    case EdgeOp.REMOVE_EDGE:
      return LinkState.REMOVED;
    default:
      return undefined;
  }
}
