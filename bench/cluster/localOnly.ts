import { STACK_ENV_NAMES } from '../../stack/endpoints.ts';

/**
 * The environment bench:cluster and its children run with: the single-node side is the local
 * JVM stack (EDGESTREAM_STACK=local, as the children resolve it), never Docker or an external
 * cluster, so both sides run on this machine's JVMs. An environment that names another
 * stack is refused, naming the variables.
 */
export function localOnlyEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const external = STACK_ENV_NAMES.filter((n) => env[n] !== undefined && env[n] !== '');
  if (external.length > 0) throw new Error(`bench:cluster compares the local single-node stack with the local cluster: unset ${external.join(', ')} (they name an external cluster)`);
  const forced = env['EDGESTREAM_STACK'];
  if (forced !== undefined && forced !== '' && forced !== 'local') throw new Error(`bench:cluster runs on the local JVM stacks: EDGESTREAM_STACK is "${forced}"; unset it or set it to local`);
  return { ...env, EDGESTREAM_STACK: 'local' };
}
