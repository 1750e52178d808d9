import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Every import/require specifier of a TypeScript file. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs: string[] = [];
  const re = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) specs.push(m[1] ?? m[2] ?? m[3] ?? m[4]);
  return specs;
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(p));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const SRC = path.join(__dirname, '..', '..', 'src');

describe('layering', () => {
  it('src/core imports nothing but other core modules (no vscode, fs, worker_threads, node:*)', () => {
    const files = tsFiles(path.join(SRC, 'core'));
    assert.ok(files.length > 5);
    for (const f of files) {
      for (const spec of importsOf(f)) {
        assert.ok(spec.startsWith('./'), `${path.relative(SRC, f)} imports '${spec}'`);
      }
    }
  });

  it('only src/extension imports vscode', () => {
    for (const f of tsFiles(SRC)) {
      if (f.startsWith(path.join(SRC, 'extension') + path.sep)) continue;
      assert.ok(!importsOf(f).includes('vscode'), `${path.relative(SRC, f)} imports vscode`);
    }
  });

  it('src/extension never imports the tokeniser or hashing code (the host thread must not hash)', () => {
    const dir = path.join(SRC, 'extension');
    if (!fs.existsSync(dir)) return;
    const forbidden = /core\/(tokenize|simhash|hash|fingerprint|sections)$|node\/fingerprintFile$/;
    for (const f of tsFiles(dir)) {
      for (const spec of importsOf(f)) assert.ok(!forbidden.test(spec), `${path.relative(SRC, f)} imports '${spec}'`);
    }
  });

  it('the import scanner itself sees imports (guard against a vacuous pass)', () => {
    const specs = importsOf(path.join(SRC, 'cli', 'cli.ts'));
    assert.ok(specs.includes('commander'));
    assert.ok(specs.includes('node:fs'));
  });
});
