/**
 * The engine's file rules: per workspace folder (root), its include / exclude globs and its
 * ignore files; whether a path is one the index takes (`eligible`: inside a root, not excluded by
 * default, by the globs or by an ignore file), and the folder a file counts in for the share of
 * lines (`folderOf`). EngineState makes them from its config (`rulesOf`) and keeps them.
 */
import * as path from 'node:path';
import { GitignoreChecker } from '../../files/ignoreRules';
import { fileMatcher, isDefaultExcluded } from '../../files/walk';
import type { EngineConfig } from '../engineProtocol';

export interface RootRules {
  path: string;
  match: (relPath: string) => boolean;
  git: GitignoreChecker;
}

export type Eligibility = { ok: true; root: RootRules; rel: string } | { ok: false; why: 'outside' | 'excluded' };

/** The rules of the config's roots (absolute, each once, in the config's order). */
export function rulesOf(config: EngineConfig): RootRules[] {
  const seen = new Set<string>();
  const rules: RootRules[] = [];
  for (const r of config.roots) {
    const abs = path.resolve(r.path);
    if (seen.has(abs)) continue;
    seen.add(abs);
    rules.push({
      path: abs,
      match: fileMatcher({ include: r.project?.include ?? config.include, exclude: [...(r.project?.exclude ?? config.exclude), ...r.exclude] }),
      git: new GitignoreChecker(abs),
    });
  }
  return rules;
}

/** A file's folder for the share of lines: the first folder under its workspace folder (`.`: at its top), named with the workspace folder when there are several. */
export function folderOf(rules: readonly RootRules[], abs: string): string {
  const root = rootOf(rules, abs);
  if (!root) return '.';
  // (asked per file set and per file's items: the path after its root's, cut at the next
  // separator, with path.relative only for a path it would normalise)
  const sep = path.sep;
  const rest = abs.slice(root.path.endsWith(sep) ? root.path.length : root.path.length + 1);
  let first: string;
  if (rest.includes(`${sep}.`) || rest.includes(sep + sep) || rest.startsWith('.')) {
    const rel = path.relative(root.path, abs).split(sep);
    first = rel.length > 1 ? rel[0] : '.';
  } else {
    const at = rest.indexOf(sep);
    first = at > 0 ? rest.slice(0, at) : '.';
  }
  return rules.length > 1 ? `${path.basename(root.path)}/${first}` : first;
}

/** The innermost root holding `abs` (null: none). */
export function rootOf(rules: readonly RootRules[], abs: string): RootRules | null {
  let best: RootRules | null = null;
  for (const r of rules) {
    if (abs === r.path || abs.startsWith(r.path.endsWith(path.sep) ? r.path : r.path + path.sep)) {
      if (!best || r.path.length > best.path.length) best = r;
    }
  }
  return best;
}

/** Whether the index takes `abs` (absolute): its root and path relative to it, or why not. */
export async function eligible(rules: readonly RootRules[], abs: string): Promise<Eligibility> {
  const root = rootOf(rules, abs);
  if (!root || abs === root.path) return { ok: false, why: 'outside' };
  const rel = path.relative(root.path, abs).split(path.sep).join('/');
  if (isDefaultExcluded(rel) || !root.match(rel) || (await root.git.isIgnored(rel))) return { ok: false, why: 'excluded' };
  return { ok: true, root, rel };
}
