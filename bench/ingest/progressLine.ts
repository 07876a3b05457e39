/** A progress line on stderr: redrawn in place on a TTY (at most every 250 ms), else one line every 5 s. */
export function createStatusLine(): { update(text: string): void; done(text?: string): void; log(text: string): void } {
  const tty = process.stderr.isTTY === true;
  let last = 0;
  let shown = false;
  return {
    update(text) {
      const now = Date.now();
      if (now - last < (tty ? 250 : 5_000)) return;
      last = now;
      if (tty) {
        process.stderr.write(`\r${text}\u001b[K`);
        shown = true;
      } else process.stderr.write(`${text}\n`);
    },
    done(text) {
      if (tty && shown) process.stderr.write('\r\u001b[K');
      shown = false;
      last = 0;
      if (text !== undefined) process.stderr.write(`${text}\n`);
    },
    log(text) {
      if (tty && shown) process.stderr.write('\r\u001b[K');
      shown = false;
      process.stderr.write(`${text}\n`);
    },
  };
}
