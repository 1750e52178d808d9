/**
 * Is one path ignored by .gitignore rules? The single-file counterpart of {@link walkFiles}'s
 * rules, for file events (a created or saved file), with the same semantics: `.gitignore` files
 * of the root and of every ancestor directory apply to their subtree, deeper rules win,
 * `!negations` work, a file inside an ignored directory stays ignored, and
 * `<root>/.git/info/exclude` applies. Ignore files are read once and kept until {@link clear}.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isIgnored, type Level } from './walkParts';

export class GitignoreChecker {
  private readonly files = new Map<string, Promise<Ignore | null>>();

  constructor(private readonly root: string) {}

  /** Forget the ignore files read so far (call when a .gitignore changes). */
  clear(): void {
    this.files.clear();
  }

  /** `relPath`: relative to the root, '/' separators. */
  async isIgnored(relPath: string): Promise<boolean> {
    const segments = relPath.split('/').filter((s) => s !== '');
    if (segments.length === 0) return false;
    const levels: Level[] = [];
    const info = await this.read(path.join(this.root, '.git', 'info', 'exclude'));
    if (info) levels.push({ base: '', ig: info });
    let dir = '';
    for (let i = 0; i < segments.length; i++) {
      const own = await this.read(path.join(this.root, dir, '.gitignore'));
      if (own) levels.push({ base: dir === '' ? '' : dir + '/', ig: own });
      const rel = dir === '' ? segments[i] : `${dir}/${segments[i]}`;
      const isDir = i < segments.length - 1;
      if (levels.length > 0 && isIgnored(levels, rel, isDir)) return true;
      dir = rel;
    }
    return false;
  }

  private read(file: string): Promise<Ignore | null> {
    let p = this.files.get(file);
    if (!p) {
      p = fsp.readFile(file, 'utf8').then(
        (text) => ignore().add(text),
        () => null,
      );
      this.files.set(file, p);
    }
    return p;
  }
}
