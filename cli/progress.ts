/**
 * A one-line progress report on stderr for long commands: count, rate and ETA, redrawn
 * at most every 250 ms on a TTY, printed every 5 s otherwise (CI logs stay readable).
 */
export function createProgress(label: string, total?: number): { add(n: number): void; done(): void } {
  const tty = process.stderr.isTTY === true;
  const t0 = Date.now();
  let count = 0;
  let last = 0;
  const line = () => {
    const secs = (Date.now() - t0) / 1000;
    const rate = secs > 0 ? count / secs : 0;
    const pct = total ? ` ${((100 * count) / total).toFixed(1)}%` : '';
    const eta = total && rate > 0 ? ` eta ${Math.max(0, (total - count) / rate).toFixed(0)}s` : '';
    return `${label}: ${count}${total ? `/${total}` : ''}${pct} ${rate.toFixed(0)}/s${eta}`;
  };
  return {
    add(n) {
      count += n;
      const now = Date.now();
      if (now - last < (tty ? 250 : 5_000)) return;
      last = now;
      if (tty) process.stderr.write(`\r${line()}\u001b[K`);
      else process.stderr.write(`${line()}\n`);
    },
    done() {
      process.stderr.write(`${tty ? '\r' : ''}${line()} done in ${((Date.now() - t0) / 1000).toFixed(1)}s${tty ? '\u001b[K' : ''}\n`);
    },
  };
}
