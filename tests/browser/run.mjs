// Runs the browser test files one after another (each starts its own server and
// browser; running them together would crowd a small machine). Arguments name
// files to run instead of all `*.test.mjs`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const files = process.argv.length > 2
  ? process.argv.slice(2)
  : readdirSync(dir).filter((f) => f.endsWith('.test.mjs')).sort();
const failed = [];
for (const file of files) {
  const run = spawnSync(process.execPath, ['--test', path.resolve(dir, file)], { stdio: 'inherit', cwd: dir });
  if (run.status !== 0) failed.push(file);
}
if (failed.length) {
  console.error(`browser tests failed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log(`browser tests passed: ${files.length} files`);
