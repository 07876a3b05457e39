import type { EdgestreamConfig } from '../../../schemas/config/edgestreamConfig.ts';
import { DEGREES_NAMESPACE } from '../../../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../../../sinks/store/index.ts';
import type { Clock } from '../Clock.ts';

/**
 * Foreground before background (docs/architecture.md §5 "Foreground before background").
 *
 * Background projections (the degree recounter, the split chain's copy and verify) share
 * Cassandra with the fan-out's writes and the server's reads. Their calls go through a
 * budget: at most `limit` of them in flight, where `limit` follows how fast the store
 * answers a canary — a point read sent every `probeIntervalMs`. While the canary answers
 * within `maxCanaryLatencyMs` the limit grows by one per probe (up to `maxConcurrency`);
 * when it does not, the limit halves (down to `minConcurrency`, so background work never
 * stops). A canary measures queueing in the store whoever causes it — foreground load, the
 * background's own, compaction — so, unlike the latency of background calls themselves
 * (which differ in size by orders of magnitude), it compares like with like.
 */
export interface BackgroundBudget {
  /** Runs `work` when a slot is free (FIFO); its time in the queue is the price background pays. */
  run<T>(work: () => Promise<T>): Promise<T>;
  stats(): BackgroundBudgetStats;
  /** Starts probing (idempotent). Without probes the limit stays where it is. */
  start(): void;
  stop(): void;
}

export interface BackgroundBudgetStats {
  readonly limit: number;
  readonly inFlight: number;
  readonly queued: number;
  /** The last canary's round trip, ms (undefined before the first). */
  readonly canaryMs: number | undefined;
  /** Probes that found the store slower than allowed, since start. */
  readonly congestedProbes: number;
  readonly probes: number;
}

export interface BackgroundBudgetOptions {
  /** The canary: one cheap foreground-like request (a point read). A failed probe counts as congested. */
  readonly probe: () => Promise<unknown>;
  readonly maxCanaryLatencyMs: number;
  readonly minConcurrency: number;
  readonly maxConcurrency: number;
  readonly probeIntervalMs: number;
  readonly clock: Pick<Clock, 'nowMs' | 'sleep'>;
}

export function createBackgroundBudget(o: BackgroundBudgetOptions): BackgroundBudget {
  if (!(Number.isInteger(o.minConcurrency) && o.minConcurrency >= 1 && Number.isInteger(o.maxConcurrency) && o.maxConcurrency >= o.minConcurrency)) {
    throw new RangeError(`background budget: need integers 1 <= minConcurrency (${o.minConcurrency}) <= maxConcurrency (${o.maxConcurrency})`);
  }
  let limit = o.maxConcurrency;
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  let canaryMs: number | undefined;
  let probes = 0;
  let congestedProbes = 0;
  let running = false;
  let loop: Promise<void> | undefined;

  const admit = () => {
    while (inFlight < limit && waiting.length > 0) {
      inFlight++;
      (waiting.shift() as () => void)();
    }
  };

  const probeOnce = async () => {
    const started = o.clock.nowMs();
    let ok = true;
    try {
      await o.probe();
    } catch {
      ok = false;
    }
    canaryMs = o.clock.nowMs() - started;
    probes++;
    if (!ok || canaryMs > o.maxCanaryLatencyMs) {
      congestedProbes++;
      limit = Math.max(o.minConcurrency, Math.floor(limit / 2));
    } else {
      limit = Math.min(o.maxConcurrency, limit + 1);
      admit();
    }
  };

  return {
    async run(work) {
      if (inFlight < limit && waiting.length === 0) inFlight++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await work();
      } finally {
        inFlight--;
        admit();
      }
    },
    stats: () => ({ limit, inFlight, queued: waiting.length, canaryMs, congestedProbes, probes }),
    start() {
      if (running) return;
      running = true;
      loop = (async () => {
        while (running) {
          await probeOnce();
          if (running) await o.clock.sleep(o.probeIntervalMs);
        }
      })();
    },
    stop() {
      running = false;
      void loop;
    },
  };
}

const CANARY_ID = 'edgestream.canary';
const CANARY_KEY = new Uint8Array([0]);

/** The budget of `config.runtime.background`, whose canary is a point read of a cell nobody writes (in the degrees table: every deployment has it). */
export function createConfiguredBackgroundBudget(store: TwoLevelMapStore, config: Pick<EdgestreamConfig, 'runtime'>, clock: Pick<Clock, 'nowMs' | 'sleep'>): BackgroundBudget {
  const canary = store.namespace(DEGREES_NAMESPACE);
  return createBackgroundBudget({ ...config.runtime.background, probe: () => canary.get(CANARY_ID, CANARY_KEY), clock });
}
