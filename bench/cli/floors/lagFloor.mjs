// Plain JavaScript: a floor pays no TypeScript stripping.
// The least a `lag --json` answer needs, with the same client (kafkajs) and nothing of edgestream's:
// load the client, connect, learn the topics, then each group's committed offsets beside its topic's watermarks.
// Usage: node lagFloor.mjs <brokers,...> <group=topic> ...
import process from 'node:process';
import kafkajs from 'kafkajs';

const [brokers = '', ...pairs] = process.argv.slice(2);
const admin = new kafkajs.Kafka({ clientId: 'bench-cli-floor', brokers: brokers.split(','), logLevel: kafkajs.logLevel.NOTHING }).admin();
await admin.connect();
const groups = pairs.map((p) => p.split('=') );
await admin.fetchTopicMetadata({ topics: [...new Set(groups.map(([, topic]) => topic))] });
const rows = await Promise.all(groups.map(async ([groupId, topic]) => ({ groupId, topic, offsets: await Promise.all([admin.fetchTopicOffsets(topic), admin.fetchOffsets({ groupId, topics: [topic] })]) })));
process.stdout.write(`${JSON.stringify(rows)}\n`);
await admin.disconnect();
