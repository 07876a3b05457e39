import avro from 'avsc';

/** The slice of avsc's (untyped) Resolver internals a union's `_update` sets. */
interface ResolverInternals {
  _read?: (tap: unknown) => unknown;
}

/** Primitive kind, treating avsc's custom long (`abstract:long`) as `long`; named types also carry their name. */
function kindOf(type: avro.Type): string {
  const typeName = type.typeName === 'abstract:long' ? 'long' : type.typeName;
  return type.name === undefined ? typeName : `${typeName}:${type.name}`;
}

/**
 * An unwrapped union that resolves a writer branch into the reader branch of
 * the *same* type first, and only then into the first branch that can read it
 * by promotion: what the Avro spec means and what Java Avro does
 * (ResolvingGrammarGenerator.bestBranch).
 *
 * avsc 5.7 (`UnwrappedUnionType.prototype._update`, lib/types.js) takes the
 * first branch that resolves at all, promotions included. In EdgeMutation's
 * `properties` union (`... string, bytes`) a `bytes` value written by any
 * writer would then be read through the earlier `string` branch: a Buffer
 * silently turned into a mangled UTF-8 string. The same class of bug is
 * actgardner/gogen-avro#144.
 */
export class ExactFirstUnionType extends avro.types.UnwrappedUnionType {
  /** avsc hook: called once per writer (branch) type when building a resolver. */
  _update(resolver: ResolverInternals, writer: avro.Type, opts: unknown): void {
    const writerKind = kindOf(writer);
    const exact = this.types.filter((t) => kindOf(t) === writerKind);
    const candidates = [...exact, ...this.types.filter((t) => !exact.includes(t))];
    for (const branch of candidates) {
      let branchResolver: ResolverInternals;
      try {
        branchResolver = branch.createResolver(writer, opts as never) as ResolverInternals;
      } catch {
        continue; // This branch cannot read the writer's type; try the next one.
      }
      resolver._read = (tap) => branchResolver._read?.(tap);
      return;
    }
    // No branch fits: leave _read unset, so avsc's createResolver throws "cannot read".
  }
}
