import { describeResurrectionHorizon, resurrectionHorizonStartMicros, type EdgestreamConfig } from '../config/edgestreamConfig.ts';

/** What the bounds of event_time depend on besides the event (structurally the runtime's ValidationContext). */
export interface EventTimeContext {
  /** The processing wall clock, µs. */
  readonly wallClockMicros: bigint;
  /** A repair re-run of an event the fan-out accepted: the skew window does not apply. */
  readonly repair?: boolean;
  /** Re-published by `edgestream replay --force`: the resurrection horizon does not apply. */
  readonly replayForced?: boolean;
}

/**
 * Why `eventTime` is outside the window last-write-wins can trust, or
 * undefined when it is inside. Ahead: at most `limits.maxFutureSkewMs` after
 * the wall clock (a time further ahead would win over every legitimate write
 * until then). Behind: not before the resurrection horizon (an older event may
 * predate a deletion whose tombstone Cassandra has purged, and would bring the
 * deleted value back). A repair re-runs an event that was accepted, possibly on
 * a host whose clock is behind the fan-out's, so only the horizon applies to
 * it; a forced replay is the operator's decision to accept old events, so only
 * the skew window applies to it.
 */
export function eventTimeProblem(eventTime: bigint, config: Pick<EdgestreamConfig, 'limits' | 'retention'>, at: EventTimeContext): string | undefined {
  const now = at.wallClockMicros;
  const latest = now + BigInt(config.limits.maxFutureSkewMs) * 1000n;
  if (at.repair !== true && eventTime > latest) {
    return `${eventTime} is ${describeMicros(eventTime - now)} ahead of the processing wall clock ${now}, ${describeMicros(eventTime - latest)} beyond the skew window (limits.maxFutureSkewMs ${config.limits.maxFutureSkewMs})`;
  }
  const oldest = resurrectionHorizonStartMicros(config, now);
  if (at.replayForced !== true && eventTime < oldest) {
    return (
      `${eventTime} is ${describeMicros(now - eventTime)} before the processing wall clock ${now}, ${describeMicros(oldest - eventTime)} past ${describeResurrectionHorizon(config)}: ` +
      'Cassandra may have purged deletions it predates, so it could bring deleted data back (edgestream replay --force re-publishes such events on purpose)'
    );
  }
  return undefined;
}

/** A duration for people: "1 µs", "500 ms", "1.5 s", "10.0 min", "2.0 days". */
export function describeMicros(micros: bigint): string {
  const ms = Number(micros) / 1000;
  if (ms < 1) return `${micros} µs`;
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1_000).toFixed(1)} s`;
  if (ms < 7_200_000) return `${(ms / 60_000).toFixed(1)} min`;
  if (ms < 172_800_000) return `${(ms / 3_600_000).toFixed(1)} h`;
  return `${(ms / 86_400_000).toFixed(1)} days`;
}
