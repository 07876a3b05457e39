import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { findJava } from './javaRuntime.ts';
import { StackError } from './stackError.ts';

const execFileAsync = promisify(execFile);

/** The secured stack's TLS material: one throwaway CA and one server certificate for 127.0.0.1 that all three servers present. */
export interface StackCertificates {
  /** The CA certificate, PEM: what clients trust (`tls.caFile`). */
  readonly caPem: string;
  /** The server's key and certificate chain, PKCS12 (Kafka, Cassandra, the registry). */
  readonly keystore: string;
  /** The CA alone, PKCS12 (Kafka's inter-broker client). */
  readonly truststore: string;
  /** The password of both stores (they never leave the stack dir). */
  readonly storePassword: string;
}

const STORE_PASSWORD_FILE = 'store.password';

const certificateFiles = (dir: string) => ({ caPem: path.join(dir, 'ca.pem'), keystore: path.join(dir, 'server.p12'), truststore: path.join(dir, 'truststore.p12') });

/** The certificates `ensureStackCertificates` made in `dir`. */
export function readStackCertificates(dir: string): StackCertificates {
  return { ...certificateFiles(dir), storePassword: fs.readFileSync(path.join(dir, STORE_PASSWORD_FILE), 'utf8') };
}

/**
 * Makes (or finds, when `dir` already holds them) a CA and a server certificate with the JDK's
 * keytool: no network, no openssl. Node's crypto cannot sign a certificate; keytool is there
 * anyway, since the stack's servers are JVMs. Valid 30 days: the stack is throwaway.
 */
export async function ensureStackCertificates(dir: string): Promise<StackCertificates> {
  const certs = certificateFiles(dir);
  const passwordFile = path.join(dir, STORE_PASSWORD_FILE);
  if ([certs.caPem, certs.keystore, certs.truststore, passwordFile].every((f) => fs.existsSync(f))) return readStackCertificates(dir);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const storePassword = crypto.randomBytes(12).toString('hex');
  const java = await findJava('keytool', (m) => m >= 11, 'a JDK 11 or newer (its keytool makes the certificates)');
  const keytool = path.isAbsolute(java.bin) ? path.join(path.dirname(java.bin), 'keytool') : 'keytool';
  const ca = path.join(dir, 'ca.p12');
  const csr = path.join(dir, 'server.csr');
  const serverPem = path.join(dir, 'server.pem');
  const store = (file: string) => ['-keystore', file, '-storetype', 'PKCS12', '-storepass', storePassword];
  const steps: string[][] = [
    ['-genkeypair', '-alias', 'ca', '-keyalg', 'RSA', '-keysize', '2048', '-dname', 'CN=edgestream local stack CA', '-ext', 'bc:c', '-validity', '30', ...store(ca)],
    ['-exportcert', '-rfc', '-alias', 'ca', '-file', certs.caPem, ...store(ca)],
    ['-genkeypair', '-alias', 'server', '-keyalg', 'RSA', '-keysize', '2048', '-dname', 'CN=127.0.0.1', '-validity', '30', ...store(certs.keystore)],
    ['-certreq', '-alias', 'server', '-file', csr, ...store(certs.keystore)],
    ['-gencert', '-alias', 'ca', '-infile', csr, '-outfile', serverPem, '-rfc', '-validity', '30',
      '-ext', 'san=ip:127.0.0.1,dns:localhost', '-ext', 'ku:c=digitalSignature,keyEncipherment', '-ext', 'eku=serverAuth,clientAuth', ...store(ca)],
    ['-importcert', '-noprompt', '-alias', 'ca', '-file', certs.caPem, ...store(certs.keystore)],
    ['-importcert', '-noprompt', '-alias', 'server', '-file', serverPem, ...store(certs.keystore)],
    ['-importcert', '-noprompt', '-alias', 'ca', '-file', certs.caPem, ...store(certs.truststore)],
  ];
  for (const args of steps) {
    try {
      await execFileAsync(keytool, args, { timeout: 60_000 });
    } catch (e) {
      const err = e as { stderr?: string; stdout?: string; message: string };
      throw new StackError('START_FAILED', `keytool ${args[0]} failed: ${err.stderr || err.stdout || err.message}`, { cause: e });
    }
  }
  fs.writeFileSync(passwordFile, storePassword, { mode: 0o600 });
  return { ...certs, storePassword };
}
