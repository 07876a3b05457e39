import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every Kafka producer the project creates must be durable (issue 25): idempotent (no duplicates or
 * reordering on retry), at most 5 requests in flight (kafkajs leaves it unbounded by default,
 * and idempotence keeps order only up to 5), and every send acknowledged by all in-sync replicas
 * (acks -1, so `topics.minInsyncReplicas` holds). Production code gets its producers from the
 * Kafka port (streams/kafka), whose kafkajs adapter is the one place they are configured; this
 * checks every file that names kafkajs (the adapter and the benchmarks). Read from the source,
 * so a producer added later is checked too.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['streams', 'processors', 'sinks', 'reads', 'server', 'cli', 'bench', 'metrics'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The argument text of each call `<callee>(…)` in `text` (balanced parentheses). */
function callArguments(text: string, callee: RegExp): { at: number; args: string }[] {
  const calls: { at: number; args: string }[] = [];
  for (const m of text.matchAll(callee)) {
    let depth = 0;
    const start = (m.index ?? 0) + m[0].length;
    for (let i = start - 1; i < text.length; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')' && --depth === 0) {
        calls.push({ at: m.index ?? 0, args: text.slice(start, i) });
        break;
      }
    }
  }
  return calls;
}

const files = FOLDERS.flatMap((f) => sourceFiles(path.join(ROOT, f))).filter((f) => /from 'kafkajs'/.test(fs.readFileSync(f, 'utf8')));
const where = (file: string, text: string, at: number) => `${path.relative(ROOT, file)}:${text.slice(0, at).split('\n').length}`;

describe('every producer is durable', () => {
  const producers = files.flatMap((file) => {
    const text = fs.readFileSync(file, 'utf8');
    return callArguments(text, /\.producer\(/g).map((c) => ({ where: where(file, text, c.at), args: c.args }));
  });
  const sends = files.flatMap((file) => {
    const text = fs.readFileSync(file, 'utf8');
    return callArguments(text, /\bproducer\.send(?:Batch)?\(/g).map((c) => ({ where: where(file, text, c.at), args: c.args }));
  });

  it('finds the producers, the adapter one among them', () => {
    expect(producers.map((p) => p.where)).toContainEqual(expect.stringMatching(/^streams\/kafka\/kafkajs\/kafkajsProducer\.ts:/));
    expect(sends.filter((s) => s.where.startsWith('streams/kafka/kafkajs/')).length).toBe(2);
  });

  it('creates each one idempotent with at most 5 requests in flight', () => {
    const bad = producers.filter((p) => {
      const inFlight = /maxInFlightRequests:\s*(\d+)/.exec(p.args);
      return !/idempotent:\s*true/.test(p.args) || inFlight === null || Number(inFlight[1]) > 5;
    });
    expect(bad.map((p) => `${p.where}: producer(${p.args})`)).toEqual([]);
  });

  it('sends with acks -1 (all in-sync replicas)', () => {
    expect(sends.filter((s) => !/acks:\s*-1\b/.test(s.args)).map((s) => s.where)).toEqual([]);
  });
});

/**
 * The same for @platformatic/kafka: its producers are created idempotent (the client then forces
 * one request in flight and acks=all, and refuses a send with other acks), and every send says
 * acks -1 as well.
 */
describe('every @platformatic/kafka producer is durable', () => {
  const platformaticFiles = FOLDERS.flatMap((f) => sourceFiles(path.join(ROOT, f))).filter((f) => /from '@platformatic\/kafka'/.test(fs.readFileSync(f, 'utf8')));
  const calls = (callee: RegExp) =>
    platformaticFiles.flatMap((file) => {
      const text = fs.readFileSync(file, 'utf8');
      return callArguments(text, callee).map((c) => ({ where: where(file, text, c.at), args: c.args }));
    });
  const producers = calls(/\bnew Producer\(/g);
  const sends = calls(/\bproducer\.send\(/g);

  it('finds the adapter producer and its send', () => {
    expect(producers.map((p) => p.where)).toEqual([expect.stringMatching(/^streams\/kafka\/platformatic\/platformaticProducer\.ts:/)]);
    expect(sends.map((s) => s.where)).toEqual([expect.stringMatching(/^streams\/kafka\/platformatic\/platformaticProducer\.ts:/)]);
  });

  it('creates each one idempotent and sends with acks -1', () => {
    expect(producers.filter((p) => !/idempotent:\s*true/.test(p.args)).map((p) => p.where)).toEqual([]);
    expect(sends.filter((s) => !/acks:\s*-1\b/.test(s.args)).map((s) => s.where)).toEqual([]);
  });
});
