import { z } from 'zod';
import type { EdgestreamConfig } from '../config/edgestreamConfig.ts';
import { EdgeOp, type EdgeMutation } from '../generated/EdgeMutation.ts';
import { propertyValueBytes } from './propertyValueBytes.ts';
import { isWellFormed, RESERVED_PROPERTY_NAMES, textProblem } from './textRules.ts';

/** What validation needs from the config. */
export type ValidationConfig = Pick<EdgestreamConfig, 'edgeTypes' | 'limits' | 'retention'>;

/** The largest write time the store accepts (Cassandra timestamps are signed 64-bit). */
const MAX_EVENT_TIME = 2n ** 63n - 1n;

// Doubles may be NaN or ±Infinity in Avro; z.number() rejects those, so the type check is spelled out.
const propertyValueSchema = z.union([
  z.null(),
  z.boolean(),
  z.bigint(),
  z.custom<number>((v) => typeof v === 'number', 'must be a double'),
  z.string(),
  z.custom<Buffer>((v) => Buffer.isBuffer(v), 'must be bytes (a Buffer)'),
]);

/**
 * Shapes first (a wrong type aborts before the semantic rules run), then the
 * rules of docs/architecture.md §5 (edge_time and data only on the ops that
 * write a whole link value, data within limits.maxEdgeDataBytes). `properties` is checked as an opaque
 * object here and entry by entry in the rules: `z.record` would hand the rules
 * a copy built by assignment, in which an own `__proto__` key and a foreign
 * prototype have already disappeared.
 */
const edgeMutationShape = z.object({
  mutation_id: z.string(),
  op: z.enum(Object.values(EdgeOp) as [EdgeOp, ...EdgeOp[]]),
  edge_type: z.string(),
  src: z.string(),
  dst: z.string(),
  event_time: z.bigint(),
  properties: z.custom<EdgeMutation['properties']>(
    (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v),
    'must be a map of property values',
  ),
  property_keys: z.array(z.string()),
  edge_time: z.bigint().nullish(),
  data: z.custom<Buffer>((v) => Buffer.isBuffer(v), 'must be bytes (a Buffer)').nullish(),
});

/** The ops that write a whole link value, and so may carry its edge time and data. */
const EDGE_VALUE_OPS: ReadonlySet<EdgeOp> = new Set([EdgeOp.ADD_EDGE, EdgeOp.HIDE_EDGE, EdgeOp.UNHIDE_EDGE]);

const schemas = new WeakMap<ValidationConfig, z.ZodType<EdgeMutation>>();

/** The zod schema of an event's semantics under `config` (built once per config object). */
export function edgeMutationSchema(config: ValidationConfig): z.ZodType<EdgeMutation> {
  let schema = schemas.get(config);
  if (schema === undefined) {
    schema = edgeMutationShape.superRefine((event, ctx) => checkSemantics(event as EdgeMutation, config, ctx)) as z.ZodType<EdgeMutation>;
    schemas.set(config, schema);
  }
  return schema;
}

type Ctx = z.RefinementCtx;

function checkSemantics(event: EdgeMutation, config: ValidationConfig, ctx: Ctx): void {
  const { limits } = config;
  const fail = (path: (string | number)[], message: string): void => ctx.addIssue({ code: 'custom', path, message });
  const text = (path: string, value: string, maxBytes: number): void => {
    const problem = textProblem(value, maxBytes);
    if (problem !== undefined) fail([path], problem);
  };

  text('mutation_id', event.mutation_id, limits.maxMutationIdBytes);
  text('src', event.src, limits.maxVertexIdBytes);
  if (event.event_time < limits.minEventTimeMicros) {
    fail(['event_time'], `${event.event_time} is before minEventTimeMicros ${limits.minEventTimeMicros} (seconds or milliseconds sent as microseconds?)`);
  } else if (event.event_time > MAX_EVENT_TIME) fail(['event_time'], 'is above 2^63-1');

  if (event.op === EdgeOp.REMOVE_NODE) {
    // A node removal cascades over every edge type; a type or a peer here would suggest the producer meant REMOVE_EDGE.
    if (event.edge_type !== '') fail(['edge_type'], 'must be empty for REMOVE_NODE (it cascades over every edge type)');
    if (event.dst !== '') fail(['dst'], 'must be empty for REMOVE_NODE');
  } else {
    if (!config.edgeTypes.some((t) => t.name === event.edge_type)) fail(['edge_type'], `unknown edge type '${event.edge_type}'`);
    text('dst', event.dst, limits.maxVertexIdBytes);
  }
  checkProperties(event, config, fail);
  checkPropertyKeys(event, config, fail);
  checkEdgeValue(event, config, fail);
}

function checkEdgeValue(event: EdgeMutation, { limits }: ValidationConfig, fail: (path: (string | number)[], message: string) => void): void {
  const carries = EDGE_VALUE_OPS.has(event.op);
  if (event.edge_time != null) {
    if (!carries) fail(['edge_time'], `must be null for ${event.op} (only ADD_EDGE, HIDE_EDGE and UNHIDE_EDGE carry an edge time)`);
    else if (event.edge_time < limits.minEventTimeMicros) {
      fail(['edge_time'], `${event.edge_time} is before minEventTimeMicros ${limits.minEventTimeMicros} (seconds or milliseconds sent as microseconds?)`);
    } else if (event.edge_time > MAX_EVENT_TIME) fail(['edge_time'], 'is above 2^63-1');
  }
  if (event.data != null && event.data.length > 0) {
    if (!carries) fail(['data'], `must be null for ${event.op} (only ADD_EDGE, HIDE_EDGE and UNHIDE_EDGE carry edge data)`);
    else if (event.data.length > limits.maxEdgeDataBytes) fail(['data'], `is ${event.data.length} bytes, more than the ${limits.maxEdgeDataBytes} allowed (limits.maxEdgeDataBytes)`);
  }
}

function checkProperties(event: EdgeMutation, { limits }: ValidationConfig, fail: (path: (string | number)[], message: string) => void): void {
  const proto: unknown = Object.getPrototypeOf(event.properties);
  if (proto !== Object.prototype && proto !== null) {
    // A decoder that assigns map entries with `obj[key] = value` turns a `__proto__` entry into the prototype.
    fail(['properties'], 'is not a plain object (was a "__proto__" entry decoded into its prototype?)');
    return;
  }
  const entries = Object.entries(event.properties);
  if (entries.length === 0) return;
  if (event.op !== EdgeOp.ADD_EDGE && event.op !== EdgeOp.SET_PROPERTIES) {
    fail(['properties'], `must be empty for ${event.op} (only ADD_EDGE and SET_PROPERTIES set properties)`);
    return;
  }
  if (entries.length > limits.maxProperties) fail(['properties'], `has ${entries.length} properties, more than the ${limits.maxProperties} allowed`);
  let bagBytes = 0;
  for (const [name, value] of entries) {
    const problem = propertyNameProblem(name, limits.maxPropertyNameBytes);
    if (problem !== undefined) fail(['properties', name], problem);
    const typed = propertyValueSchema.safeParse(value);
    if (!typed.success) {
      fail(['properties', name], 'must be null, a boolean, a long (bigint), a double (number), a string or bytes (Buffer)');
      continue;
    }
    if (typeof value === 'string' && !isWellFormed(value)) fail(['properties', name], 'string value contains a lone UTF-16 surrogate');
    bagBytes += Buffer.byteLength(name, 'utf8') + propertyValueBytes(value);
  }
  if (bagBytes > limits.maxPropertyBagBytes) {
    fail(['properties'], `encodes to ${bagBytes} bytes (names + values), more than the ${limits.maxPropertyBagBytes} allowed`);
  }
}

function checkPropertyKeys(event: EdgeMutation, { limits }: ValidationConfig, fail: (path: (string | number)[], message: string) => void): void {
  if (event.property_keys.length === 0) return;
  if (event.op !== EdgeOp.REMOVE_PROPERTIES) {
    fail(['property_keys'], `must be empty for ${event.op} (only REMOVE_PROPERTIES names keys to delete)`);
    return;
  }
  if (event.property_keys.length > limits.maxProperties) {
    fail(['property_keys'], `has ${event.property_keys.length} keys, more than the ${limits.maxProperties} allowed`);
  }
  event.property_keys.forEach((name, i) => {
    const problem = propertyNameProblem(name, limits.maxPropertyNameBytes);
    if (problem !== undefined) fail(['property_keys', i], problem);
  });
}

function propertyNameProblem(name: string, maxBytes: number): string | undefined {
  if (RESERVED_PROPERTY_NAMES.has(name)) return `'${name}' is a reserved property name`;
  return textProblem(name, maxBytes);
}
