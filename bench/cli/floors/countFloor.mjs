// Plain JavaScript: a floor pays no TypeScript stripping.
// The least a `count <type> <vertex> --json` answer needs, with the same client (cassandra-driver) and nothing of
// edgestream's: load the driver, connect (with its metadata, as the store connects), one prepared point read per direction.
// Usage: node countFloor.mjs <contact point> <local dc> <keyspace> <vertex> <edge type> <direction> ...
import { Buffer } from 'node:buffer';
import process from 'node:process';
import cassandra from 'cassandra-driver';

const [contactPoint = '', localDataCenter = '', keyspace = '', id = '', edgeType = '', ...directions] = process.argv.slice(2);
const keys = directions.map((d) => Buffer.from(`${edgeType}\u0000${d}`)); // the degrees key: type NUL direction
const client = new cassandra.Client({ contactPoints: [contactPoint], localDataCenter, keyspace });
await client.connect();
const rows = await Promise.all(keys.map((key) => client.execute('SELECT value FROM degrees WHERE id = ? AND key = ?', [id, key], { prepare: true })));
process.stdout.write(`${JSON.stringify(rows.map((r) => r.rowLength))}\n`);
await client.shutdown();
