/**
 * The degree distribution of the capacity model, in closed form: E edges whose endpoints are
 * drawn independently with P(rank r) ∝ r^-s over V vertices (the generator of bench:ingest,
 * bench:reads and cli/workload, `createZipfSampler`). The vertex of rank r then has a Poisson
 * degree with mean d(r) = E·r^-s / H(V, s). Every figure below is an expectation over that
 * generator, computed from generalized harmonic numbers, so 100 B vertices cost as little as
 * 1 000: a simulation of a reduced graph could not be scaled back, because the head (the
 * celebrities that decide splits) grows as E/H(V, s), not in proportion to the graph.
 */

/** Ranks summed one by one before the Euler–Maclaurin tail takes over (error far below 1e-12 relative). */
const EXACT_TERMS = 10_000;
/** Simpson panels (in ln x) for tail integrals without a closed form. */
const LOG_PANELS = 4_000;

/** H(n, s) = Σ_{r=1..n} r^-s for real n ≥ 0 (floored) and s > 0. */
export function harmonic(n: number, s: number): number {
  const last = Math.floor(n);
  if (last <= 0) return 0;
  const head = Math.min(last, EXACT_TERMS);
  let sum = 0;
  for (let r = head; r >= 1; r--) sum += Math.pow(r, -s); // smallest first: less rounding
  if (last === head) return sum;
  // Euler–Maclaurin: Σ_{a+1..b} f ≈ ∫_a^b f + (f(b) − f(a))/2 + (f'(b) − f'(a))/12
  const a = head;
  const b = last;
  return sum + powerIntegral(a, b, s) + (Math.pow(b, -s) - Math.pow(a, -s)) / 2 + (s * (Math.pow(a, -s - 1) - Math.pow(b, -s - 1))) / 12;
}

/** ∫_a^b x^-s dx, stable near s = 1. */
function powerIntegral(a: number, b: number, s: number): number {
  const k = 1 - s;
  const logRatio = Math.log(b / a);
  if (Math.abs(k * logRatio) < 1e-12) return logRatio * Math.pow(a, k);
  return (Math.pow(a, k) * Math.expm1(k * logRatio)) / k;
}

/** A degree distribution: E edges over V vertices, Zipf exponent s. */
export interface ZipfDegrees {
  readonly vertices: number;
  readonly edges: number;
  readonly exponent: number;
  /** Mean degree of the rank-1 vertex: E / H(V, s). */
  readonly top: number;
}

export function zipfDegrees(vertices: number, edges: number, exponent: number): ZipfDegrees {
  if (!(vertices >= 1) || !(edges >= 0) || !(exponent > 0)) throw new RangeError(`zipfDegrees: need vertices ≥ 1, edges ≥ 0, exponent > 0 (got ${vertices}, ${edges}, ${exponent})`);
  return { vertices, edges, exponent, top: edges / harmonic(vertices, exponent) };
}

/** Mean degree of the vertex of rank r (1-based). */
export function degreeAtRank(z: ZipfDegrees, rank: number): number {
  return z.top * Math.pow(rank, -z.exponent);
}

/** How many vertices have a mean degree of at least `degree` (the head is where Poisson noise is negligible). */
export function verticesWithDegreeAtLeast(z: ZipfDegrees, degree: number): number {
  if (degree <= 0) return z.vertices;
  return Math.min(z.vertices, Math.floor(Math.pow(z.top / degree, 1 / z.exponent) * (1 + 1e-12)));
}

/** Σ of the mean degrees of the vertices counted by `verticesWithDegreeAtLeast(z, degree)`. */
export function edgesOfVerticesWithDegreeAtLeast(z: ZipfDegrees, degree: number): number {
  return z.top * harmonic(verticesWithDegreeAtLeast(z, degree), z.exponent);
}

/**
 * Expected number of vertices with at least one edge: Σ_r (1 − e^{−d(r)}). Each vertex with an
 * edge has a partition in the namespaces keyed by that endpoint.
 */
export function verticesWithEdges(z: ZipfDegrees): number {
  const f = (x: number) => -Math.expm1(-z.top * Math.pow(x, -z.exponent));
  const last = Math.floor(z.vertices);
  const head = Math.min(last, EXACT_TERMS);
  let sum = 0;
  for (let r = head; r >= 1; r--) sum += f(r);
  if (last === head) return sum;
  const df = (x: number) => -z.exponent * z.top * Math.pow(x, -z.exponent - 1) * Math.exp(-z.top * Math.pow(x, -z.exponent));
  return sum + logSimpson(f, head, last) + (f(last) - f(head)) / 2 + (df(last) - df(head)) / 12;
}

/** ∫_a^b f(x) dx by Simpson's rule in u = ln x (power laws are smooth there). */
function logSimpson(f: (x: number) => number, a: number, b: number): number {
  const lo = Math.log(a);
  const h = (Math.log(b) - lo) / LOG_PANELS;
  const g = (u: number) => f(Math.exp(u)) * Math.exp(u);
  let sum = g(lo) + g(lo + LOG_PANELS * h);
  for (let i = 1; i < LOG_PANELS; i++) sum += (i % 2 === 1 ? 4 : 2) * g(lo + i * h);
  return (sum * h) / 3;
}

/**
 * Mean degree of the vertex at the far end of a random edge: Σ E[deg²] / Σ E[deg] with Poisson
 * degrees (λ² + λ), i.e. c·H(V, 2s)/H(V, s) + 1. A traversal's next frontier grows by this,
 * not by the mean degree E/V (the friendship paradox).
 */
export function sizeBiasedMeanDegree(z: ZipfDegrees): number {
  if (z.edges === 0) return 0;
  return (z.top * harmonic(z.vertices, 2 * z.exponent)) / harmonic(z.vertices, z.exponent) + 1;
}
