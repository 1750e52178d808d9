// Fetches the @node-rs/jieba platform packages for scripts/package-all.js: `npm pack` of
// `@node-rs/jieba-<platform>@<version locked in package-lock.json>` into a cache folder (npm pack
// fetches any platform's package on any host, where npm install would refuse it), checked against
// the lock's integrity hash, and read out of the tarball without unpacking it to disk.
'use strict';
const { execFileSync } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

/** The version and integrity package-lock.json holds for `node_modules/<name>`. */
function lockedPackage(root, name) {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const entry = lock.packages && lock.packages[`node_modules/${name}`];
  if (!entry || !entry.version) throw new Error(`${name} is not in package-lock.json`);
  return { version: entry.version, integrity: entry.integrity };
}

/** `npm pack`'s file name for a package: "@node-rs/jieba-x" → "node-rs-jieba-x-2.0.3.tgz". */
function tarballName(name, version) {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}

/**
 * The path of the tarball of `name` at its locked version in `cacheDir`, fetched with npm pack
 * if missing. Throws if the file's hash differs from the lock's integrity (a corrupt cache entry
 * is removed first so the next run fetches it again).
 */
function fetchLocked(root, name, cacheDir) {
  const { version, integrity } = lockedPackage(root, name);
  fs.mkdirSync(cacheDir, { recursive: true });
  const file = path.join(cacheDir, tarballName(name, version));
  if (!fs.existsSync(file)) {
    execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['pack', `${name}@${version}`, '--pack-destination', cacheDir, '--silent'], {
      cwd: cacheDir,
      stdio: ['ignore', 'ignore', 'inherit'],
      shell: process.platform === 'win32',
    });
    if (!fs.existsSync(file)) throw new Error(`npm pack ${name}@${version} did not write ${file}`);
  }
  if (integrity) {
    const [algo, want] = integrity.split('-');
    const got = crypto.createHash(algo).update(fs.readFileSync(file)).digest('base64');
    if (got !== want) {
      fs.rmSync(file, { force: true });
      throw new Error(`${file} does not match package-lock.json's integrity for ${name}@${version}`);
    }
  }
  return { file, version };
}

/**
 * The regular files of a .tgz as a Map from path (npm's leading "package/" removed) to contents.
 * A minimal ustar reader: npm tarballs hold plain files with ustar headers (and, for long
 * names, the ustar prefix field).
 */
function readTarball(file) {
  const data = zlib.gunzipSync(fs.readFileSync(file));
  const files = new Map();
  const str = (o, n) => {
    const s = data.toString('latin1', o, o + n);
    const nul = s.indexOf('\0');
    return nul < 0 ? s : s.slice(0, nul);
  };
  for (let o = 0; o + 512 <= data.length; ) {
    const name = str(o, 100);
    if (name === '') break; // the two zero blocks that end the archive
    const size = parseInt(str(o + 124, 12).trim() || '0', 8);
    const kind = str(o + 156, 1);
    const prefix = str(o + 345, 155);
    const full = prefix ? `${prefix}/${name}` : name;
    if (kind === '0' || kind === '') files.set(full.replace(/^package\//, ''), data.subarray(o + 512, o + 512 + size));
    o += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

module.exports = { lockedPackage, fetchLocked, readTarball, tarballName };
