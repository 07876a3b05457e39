// Writes schemas/generated/*.ts from schemas/avro/*.avsc. Run: npm run codegen
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSchemaModules } from './generateSchemaModules.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const modules = generateSchemaModules(repoRoot);
const outDir = path.join(repoRoot, 'schemas', 'generated');
mkdirSync(outDir, { recursive: true });

// Drop modules whose .avsc is gone, so the folder mirrors schemas/avro exactly.
const keep = new Set(modules.map((m) => path.basename(m.outPath)));
for (const file of readdirSync(outDir)) {
  if (!keep.has(file)) rmSync(path.join(outDir, file));
}
for (const m of modules) {
  writeFileSync(m.outPath, m.content);
  console.log(`wrote ${path.relative(repoRoot, m.outPath)}`);
}
