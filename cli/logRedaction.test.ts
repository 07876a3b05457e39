import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { logRedaction } from './logRedaction.ts';

const SECRET = 'hunter2-secret';

function logged(obj: Record<string, unknown>): string {
  const lines: string[] = [];
  pino({ redact: logRedaction }, { write: (l: string) => void lines.push(l) }).info(obj, 'options');
  return lines.join('');
}

describe('log redaction', () => {
  it('hides every secret-bearing field of the clients\' options, at the depths they are logged at', () => {
    const security = {
      kafka: { ssl: { ca: 'CA', key: SECRET }, sasl: { mechanism: 'scram-sha-512', username: 'es', password: SECRET } },
      registry: { auth: { username: 'es', password: SECRET } },
      cassandra: { sslOptions: { key: SECRET }, credentials: { username: 'es', password: SECRET } },
    };
    const out = logged({ password: SECRET, headers: { authorization: `Bearer ${SECRET}` }, security, endpoints: { security }, ctx: { endpoints: { security } } });
    expect(out).not.toContain(SECRET);
    // What is not secret stays readable.
    expect(out).toContain('"username":"es"');
    expect(out).toContain('"mechanism":"scram-sha-512"');
  });
});
