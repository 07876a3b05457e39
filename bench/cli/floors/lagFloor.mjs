// Plain JavaScript: a floor pays no TypeScript stripping.
// The least a `lag --json` answer needs, with the same client (kafkajs) and nothing of edgestream's:
// load the client, connect, learn the topics, each topic's watermarks once, each group's committed offsets.
// Usage: node lagFloor.mjs <brokers,...> <group=topic> ...
import process from 'node:process';
import kafkajs from 'kafkajs';

const [brokers = '', ...pairs] = process.argv.slice(2);
const admin = new kafkajs.Kafka({ clientId: 'bench-cli-floor', brokers: brokers.split(','), logLevel: kafkajs.logLevel.NOTHING }).admin();
await admin.connect();
const groups = pairs.map((p) => p.split('='));
const topics = [...new Set(groups.map(([, topic]) => topic))];
await admin.fetchTopicMetadata({ topics });
const watermarks = new Map(await Promise.all(topics.map(async (topic) => [topic, await admin.fetchTopicOffsets(topic)])));
const rows = await Promise.all(groups.map(async ([groupId, topic]) => ({ groupId, topic, watermarks: watermarks.get(topic), committed: await admin.fetchOffsets({ groupId, topics: [topic] }) })));
process.stdout.write(`${JSON.stringify(rows)}\n`);
await admin.disconnect();
