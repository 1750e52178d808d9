// Writes src/core/text/tokens/wordRuns.ts: the word characters of unicodeWordTable
// (src/core/text/tokens/wordChars.ts) as this Node's engine classifies them, with its Unicode
// version. Run it (npx tsx scripts/word-runs.ts) after a Node with another Unicode version comes;
// until then, a thread of another version makes its table itself (the same table, ~13 ms later).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { unicodeWordTable } from '../src/core/text/tokens/wordChars';
import { runsOfTable } from '../src/core/text/tokens/wordRuns';

const version = process.versions.unicode;
if (!version) throw new Error('this Node does not say its Unicode version (process.versions.unicode)');
const file = path.join(__dirname, '..', 'src', 'core', 'text', 'tokens', 'wordRuns.ts');
const text = fs.readFileSync(file, 'utf8');
const updated = text
  .replace(/export const WORD_CHAR_RUNS_UNICODE = '[^']*';/, `export const WORD_CHAR_RUNS_UNICODE = '${version}';`)
  .replace(/export const WORD_CHAR_RUNS =\n  '[^']*';/, `export const WORD_CHAR_RUNS =\n  '${runsOfTable(unicodeWordTable())}';`);
if (updated === text) console.log(`word-runs: ${path.relative(process.cwd(), file)} already holds Unicode ${version}'s runs`);
else {
  fs.writeFileSync(file, updated);
  console.log(`word-runs: wrote Unicode ${version}'s runs into ${path.relative(process.cwd(), file)}`);
}
