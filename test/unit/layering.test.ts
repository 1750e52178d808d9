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
const CORE = path.join(SRC, 'core');

describe('layering', () => {
  it('src/core imports nothing but other core modules (no vscode, fs, worker_threads, node:*)', () => {
    const files = tsFiles(path.join(SRC, 'core'));
    assert.ok(files.length > 5);
    for (const f of files) {
      for (const spec of importsOf(f)) {
        const target = path.resolve(path.dirname(f), spec);
        assert.ok(spec.startsWith('.') && target.startsWith(CORE + path.sep), `${path.relative(SRC, f)} imports '${spec}'`);
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
    const forbidden = /core\/(text|fingerprint|sections)\/|node\/workers\/fingerprintFile$/;
    for (const f of tsFiles(dir)) {
      for (const spec of importsOf(f)) assert.ok(!forbidden.test(spec), `${path.relative(SRC, f)} imports '${spec}'`);
    }
  });

  it('no network or process-spawning modules anywhere in src (http, https, http2, net, tls, dgram, dns, child_process, cluster)', () => {
    const forbidden = /^(node:)?(http|https|http2|net|tls|dgram|dns|child_process|cluster)(\/.*)?$/;
    const files = tsFiles(SRC);
    assert.ok(files.length > 40);
    for (const f of files) {
      for (const spec of importsOf(f)) assert.ok(!forbidden.test(spec), `${path.relative(SRC, f)} imports '${spec}'`);
      // Also no global fetch / WebSocket / XMLHttpRequest.
      const text = fs.readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      assert.ok(!/\b(fetch|WebSocket|XMLHttpRequest|EventSource)\s*\(/.test(text), `${path.relative(SRC, f)} uses the network`);
    }
  });

  it('src writes files only in fingerprintCache.ts (the cache, in the extension storage); every other open is read-only', () => {
    const writes = /\b(?:fs|fsp|promises)\.(?:writeFile|appendFile|mkdir|mkdtemp|rename|rm|rmdir|unlink|createWriteStream|copyFile|cp|symlink|link|chmod|chown|utimes|lutimes|truncate|write|writev)\w*\s*\(/;
    let cacheWrites = 0;
    for (const f of tsFiles(SRC)) {
      const text = fs.readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      const rel = path.relative(SRC, f).split(path.sep).join('/');
      for (const line of text.split('\n')) {
        if (writes.test(line)) {
          if (rel === 'node/engine/fingerprintCache.ts') cacheWrites++;
          else assert.fail(`${rel} writes: ${line.trim()}`);
        }
        if (/\.open(Sync)?\s*\(/.test(line) && /\b(fs|fsp)\./.test(line)) assert.match(line, /O_RDONLY/, `${rel} opens a file for writing: ${line.trim()}`);
      }
    }
    assert.ok(cacheWrites >= 3, 'the scanner sees the cache writes (guard against a vacuous pass)');
  });

  it('the indexing path never pops up a notification (crashes, cache faults and skips go to the output channel)', () => {
    const popup = /\bshow(Error|Warning|Information)Message\s*\(/;
    const allowed = new Set(['extension/commands/findNearDuplicates.ts', 'extension/commands/compare.ts', 'extension/settings.ts']);
    let seen = 0;
    for (const f of tsFiles(SRC)) {
      const rel = path.relative(SRC, f).split(path.sep).join('/');
      const uses = popup.test(fs.readFileSync(f, 'utf8'));
      if (allowed.has(rel)) seen += uses ? 1 : 0;
      else assert.ok(!uses, `${rel} shows a notification`);
    }
    assert.ok(seen > 0, 'the scanner sees the commands’ messages (guard against a vacuous pass)');
  });

  it('package.json capabilities are honest: no virtual workspaces (files are read through Node fs); untrusted workspaces supported (no workspace code runs, nothing is written into it, no network)', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(SRC, '..', 'package.json'), 'utf8'));
    assert.deepEqual(pkg.capabilities.virtualWorkspaces.supported, false);
    assert.ok(pkg.capabilities.virtualWorkspaces.description, 'says why');
    assert.equal(pkg.capabilities.untrustedWorkspaces.supported, true);
    // The extension reads files through Node's fs in a worker: a virtual (non-file) workspace would show nothing.
    assert.ok(tsFiles(path.join(SRC, 'node')).some((f) => importsOf(f).includes('node:fs')));
  });

  it('the import scanner itself sees imports (guard against a vacuous pass)', () => {
    const specs = importsOf(path.join(SRC, 'cli', 'cli.ts'));
    assert.ok(specs.includes('commander'));
    assert.ok(specs.includes('node:fs'));
  });
});
