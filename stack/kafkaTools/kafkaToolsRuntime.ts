import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { findJava } from '../javaRuntime.ts';
import { ensureClasspath, provisionOnce } from '../mavenArtifacts.ts';
import { StackError } from '../stackError.ts';
import { STACK_VERSIONS } from '../stackConfig.ts';

const execFileAsync = promisify(execFile);

/** The edgestream helpers for binary values (base64 in and out), compiled once per source change. */
const JAVA_SOURCES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'java');

/** Everything a Kafka tool needs to run: a JVM, its classpath and a log config that keeps stdout for records. */
export interface KafkaToolsRuntime {
  readonly java: string;
  readonly classpath: readonly string[];
  readonly log4jFile: string;
}

/** WARN and above, to stderr: a tool's stdout carries only what it prints (records, tables). */
const TOOLS_LOG4J = `log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
`;

function javaSourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.java')) out.push(p);
    }
  };
  walk(JAVA_SOURCES);
  return out;
}

/**
 * Resolves the tools of the broker's Kafka version from Maven Central the way the
 * broker is resolved (a throwaway pom, `copy-dependencies`, cached under
 * `<cacheDir>/kafka-tools-<version>`): `kafka-tools` for the consumer, group and
 * topic commands, `kafka_2.13` for the console producer (still in core in 3.9),
 * reload4j for their logs. Then compiles the edgestream helpers with the JDK's javac.
 */
export async function ensureKafkaTools(cacheDir: string, log: (line: string) => void = () => {}): Promise<KafkaToolsRuntime> {
  const version = STACK_VERSIONS.kafka;
  const java = await findJava(`Kafka ${version} tools`, (m) => m >= 17, 'Java 17 or newer');
  const libName = `kafka-tools-${version}`;
  if (!fs.existsSync(path.join(cacheDir, libName, '.complete'))) log(`resolving the Kafka ${version} tools from Maven Central (once, into ${cacheDir})`);
  const lib = await ensureClasspath(cacheDir, libName, [
    { groupId: 'org.apache.kafka', artifactId: 'kafka-tools', version },
    { groupId: 'org.apache.kafka', artifactId: 'kafka_2.13', version },
    { groupId: 'org.slf4j', artifactId: 'slf4j-reload4j', version: '1.7.36' },
    { groupId: 'ch.qos.reload4j', artifactId: 'reload4j', version: '1.2.25' },
  ]);
  const sources = javaSourceFiles();
  const hash = crypto.createHash('sha256');
  for (const file of sources) hash.update(file.slice(JAVA_SOURCES.length)).update(fs.readFileSync(file));
  const helpers = await provisionOnce(path.join(cacheDir, `${libName}-edgestream-${hash.digest('hex').slice(0, 12)}`), async (scratch) => {
    const javac = java.bin === 'java' ? 'javac' : path.join(path.dirname(java.bin), 'javac');
    try {
      await execFileAsync(javac, ['--release', '11', '-nowarn', '-cp', `${lib}/*`, '-d', path.join(scratch, 'classes'), ...sources], { timeout: 120_000 });
    } catch (e) {
      const err = e as NodeJS.ErrnoException & { stderr?: string };
      if (err.code === 'ENOENT') {
        throw new StackError('JAVA_MISSING', `the Kafka tools' base64 helpers need a JDK (javac) next to ${java.bin}; install one (e.g. apt-get install openjdk-17-jdk-headless) or point EDGESTREAM_JAVA_HOME at it.`);
      }
      throw new StackError('START_FAILED', `compiling the Kafka tools' base64 helpers failed: ${err.stderr ?? String(e)}`, { cause: e });
    }
    fs.writeFileSync(path.join(scratch, 'tools-log4j.properties'), TOOLS_LOG4J);
  });
  return { java: java.bin, classpath: [`${lib}/*`, path.join(helpers, 'classes')], log4jFile: path.join(helpers, 'tools-log4j.properties') };
}
