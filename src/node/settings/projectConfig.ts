/**
 * `.neardup.json`, a project's own NearDup configuration at the root of a folder: JSON with
 * comments (parsed by Microsoft's jsonc-parser, the parser of VS Code's own settings files),
 * holding the project-level keys of the `neardup.*` settings (same names, same rules: the
 * {@link SETTINGS_SPEC} of settingsSchema.ts) plus `baseline`, the path of the project's baseline
 * file. The one module that reads and validates it, for the CLI and the extension alike.
 *
 * Validation is strict (unlike the settings, nothing is clamped or corrected): a file with any
 * problem — a syntax error, an unknown key, a wrong type, a value out of bounds or not among the
 * allowed ones — is not used at all, and its problems come back with the file, line, column and
 * key of each, for one message. The front ends decide what to do (the CLI stops with exit code 2;
 * the extension keeps the settings and defaults in force). Never throws.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { SETTINGS_SPEC, type NearDupSettings } from './settingsSchema';

export const PROJECT_CONFIG_FILE = '.neardup.json';
/** A larger `.neardup.json` is refused (it is a handful of keys; a workspace is untrusted input). */
export const PROJECT_CONFIG_MAX_BYTES = 256 * 1024;

/**
 * Settings of how one person sees the results (severity, editor marks, CodeLens, checks while
 * typing, baseline pairs, paste notices): not a project's. `locate` is a project's (a CI's
 * `"locate": false` for a tree where the plain scan is enough, the editor's too).
 */
type PersonalField = 'severity' | 'decorationsEnabled' | 'codeLensEnabled' | 'liveWhileTyping' | 'baselineShow' | 'onPaste' | 'pasteMinLines';
const PERSONAL: ReadonlySet<keyof NearDupSettings> = new Set<PersonalField>(['severity', 'decorationsEnabled', 'codeLensEnabled', 'liveWhileTyping', 'baselineShow', 'onPaste', 'pasteMinLines']);

/** The settings a project may set in its file (the personal ones stay in each user's settings). */
export type ProjectField = Exclude<keyof NearDupSettings, PersonalField>;
export const PROJECT_FIELDS: readonly ProjectField[] = (Object.keys(SETTINGS_SPEC) as Array<keyof NearDupSettings>).filter((f): f is ProjectField => !PERSONAL.has(f));

/** The keys of `.neardup.json`: the settings' ids without `neardup.`, plus `baseline` and `$schema`. */
export const PROJECT_KEYS: readonly string[] = [...PROJECT_FIELDS.map((f) => SETTINGS_SPEC[f].key), 'baseline', '$schema'];

export interface ProjectConfig {
  /** The file read (absolute). */
  file: string;
  /** The settings it sets, by field (unset keys absent). */
  settings: Partial<Pick<NearDupSettings, ProjectField>>;
  /** `baseline`, resolved against the file's folder. */
  baseline?: string;
}

export type ConfigProblemKind = 'read' | 'tooLarge' | 'syntax' | 'notObject' | 'unknownKey' | 'duplicateKey' | 'type' | 'integer' | 'range' | 'enum' | 'glob';

export interface ConfigProblem {
  file: string;
  /** 1-based; 0 when the problem is the file as a whole (cannot be read, too large). */
  line: number;
  column: number;
  /** The key concerned, when there is one. */
  key?: string;
  kind: ConfigProblemKind;
  /** The value as written (JSON, shortened), for type and value problems. */
  given?: string;
  /** What is expected: a type ('a whole number'), a range ('0 to 20'), the allowed values ('"jieba", "bigram"'), or the parser's / system's error. */
  expected?: string;
  /** The bounds, for a value out of them. */
  bounds?: [number, number];
}

export type ProjectConfigResult =
  | { status: 'absent' }
  | { status: 'ok'; config: ProjectConfig }
  | { status: 'invalid'; file: string; problems: ConfigProblem[] };

const KEY_TO_FIELD = new Map<string, ProjectField>(PROJECT_FIELDS.map((f) => [SETTINGS_SPEC[f].key, f]));

/** 1-based line and column of an offset. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

function shown(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function typeName(node: Node): string {
  return node.type;
}

/** Parses and validates the text of a `.neardup.json` (`file` names it in the problems). */
export function parseProjectConfig(text: string, file: string): ProjectConfigResult {
  const problems: ConfigProblem[] = [];
  const at = (offset: number, p: Omit<ConfigProblem, 'file' | 'line' | 'column'>) => problems.push({ file, ...position(text, offset), ...p });
  const errors: ParseError[] = [];
  // A BOM is allowed (editors on Windows write one).
  const body = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  const root = parseTree(body, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  if (errors.length > 0) {
    const e = errors[0];
    at(e.offset, { kind: 'syntax', expected: printParseErrorCode(e.error) });
    return { status: 'invalid', file, problems };
  }
  if (!root) return { status: 'ok', config: { file, settings: {} } }; // empty or comments only
  if (root.type !== 'object') {
    at(root.offset, { kind: 'notObject', given: typeName(root) });
    return { status: 'invalid', file, problems };
  }
  const config: ProjectConfig = { file, settings: {} };
  const out = config.settings as Record<string, unknown>;
  const seen = new Set<string>();
  for (const prop of root.children ?? []) {
    const [keyNode, valueNode] = prop.children ?? [];
    if (!keyNode || !valueNode) continue;
    const key = String(keyNode.value);
    const value: unknown = nodeValue(valueNode);
    const problem = (p: Omit<ConfigProblem, 'file' | 'line' | 'column' | 'key'>, node = valueNode) => at(node.offset, { key, ...p });
    if (seen.has(key)) {
      problem({ kind: 'duplicateKey' }, keyNode);
      continue;
    }
    seen.add(key);
    if (key === '$schema') {
      if (typeof value !== 'string') problem({ kind: 'type', given: shown(value), expected: 'a string' });
      continue;
    }
    if (key === 'baseline') {
      if (typeof value !== 'string' || value.trim() === '' || value.includes('\0')) problem({ kind: 'type', given: shown(value), expected: 'a file path' });
      else config.baseline = path.resolve(path.dirname(file), value);
      continue;
    }
    const field = KEY_TO_FIELD.get(key);
    if (!field) {
      problem({ kind: 'unknownKey' }, keyNode);
      continue;
    }
    const spec = SETTINGS_SPEC[field];
    switch (spec.kind) {
      case 'integer':
      case 'number': {
        const whole = spec.kind === 'integer';
        if (typeof value !== 'number' || !Number.isFinite(value)) problem({ kind: 'type', given: shown(value), expected: whole ? 'a whole number' : 'a number' });
        else if (whole && !Number.isInteger(value)) problem({ kind: 'integer', given: shown(value), expected: 'a whole number' });
        else if (value < spec.min || value > spec.max) problem({ kind: 'range', given: shown(value), expected: `${spec.min} to ${spec.max}`, bounds: [spec.min, spec.max] });
        else out[field] = value;
        break;
      }
      case 'boolean':
        if (typeof value !== 'boolean') problem({ kind: 'type', given: shown(value), expected: 'true or false' });
        else out[field] = value;
        break;
      case 'enum':
        if (typeof value !== 'string' || !spec.values.includes(value)) problem({ kind: 'enum', given: shown(value), expected: spec.values.map((v) => JSON.stringify(v)).join(', ') });
        else out[field] = value;
        break;
      case 'globs': {
        if (!Array.isArray(value)) {
          problem({ kind: 'type', given: shown(value), expected: 'a list of globs' });
          break;
        }
        const bad = value.findIndex((g) => typeof g !== 'string' || g.trim() === '');
        if (bad >= 0) problem({ kind: 'glob', given: shown(value[bad]), expected: 'a list of globs' }, valueNode.children?.[bad] ?? valueNode);
        else out[field] = (value as string[]).map((g) => g.trim());
        break;
      }
    }
  }
  return problems.length > 0 ? { status: 'invalid', file, problems } : { status: 'ok', config };
}

/** The plain value of a parsed node (jsonc-parser's getNodeValue, without its recursion limit concerns for a small file). */
function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const p of node.children ?? []) if (p.children?.[0] && p.children[1]) o[String(p.children[0].value)] = nodeValue(p.children[1]);
      return o;
    }
    case 'array':
      return (node.children ?? []).map(nodeValue);
    case 'null':
      return null;
    default:
      return node.value;
  }
}

/**
 * Reads `file` (a `.neardup.json`, or the file named by `--config`): `absent` when there is none,
 * else as {@link parseProjectConfig}. Read-only; a directory, a FIFO or a device is a problem, not
 * a hang; a file larger than {@link PROJECT_CONFIG_MAX_BYTES} is refused.
 */
export function readProjectConfig(file: string): ProjectConfigResult {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'absent' };
    return { status: 'invalid', file, problems: [{ file, line: 0, column: 0, kind: 'read', expected: code ?? (e as Error).message }] };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { status: 'invalid', file, problems: [{ file, line: 0, column: 0, kind: 'read', expected: 'not a regular file' }] };
    if (st.size > PROJECT_CONFIG_MAX_BYTES) return { status: 'invalid', file, problems: [{ file, line: 0, column: 0, kind: 'tooLarge', expected: `${PROJECT_CONFIG_MAX_BYTES} bytes` }] };
    const buf = Buffer.alloc(st.size);
    let n = 0;
    while (n < buf.length) {
      const r = fs.readSync(fd, buf, n, buf.length - n, n);
      if (r === 0) break;
      n += r;
    }
    return parseProjectConfig(buf.subarray(0, n).toString('utf8'), file);
  } catch (e) {
    return { status: 'invalid', file, problems: [{ file, line: 0, column: 0, kind: 'read', expected: (e as NodeJS.ErrnoException).code ?? (e as Error).message }] };
  } finally {
    fs.closeSync(fd);
  }
}

/** The `.neardup.json` of a folder. */
export function readFolderConfig(folder: string): ProjectConfigResult {
  return readProjectConfig(path.join(folder, PROJECT_CONFIG_FILE));
}

/** `file:line:column` of a problem (just the file when it concerns the whole file). */
export function problemLocation(p: ConfigProblem): string {
  return p.line > 0 ? `${p.file}:${p.line}:${p.column}` : p.file;
}

/** A problem in English (the CLI's message; the extension has its localised twin). */
export function describeConfigProblem(p: ConfigProblem): string {
  const key = p.key !== undefined ? `"${p.key}"` : '';
  switch (p.kind) {
    case 'read':
      return `cannot be read (${p.expected})`;
    case 'tooLarge':
      return `is larger than ${p.expected}`;
    case 'syntax':
      return `is not valid JSON (${p.expected})`;
    case 'notObject':
      return `must hold one JSON object, not ${p.given}`;
    case 'unknownKey':
      return `${key} is not a NearDup setting (the keys: ${PROJECT_KEYS.filter((k) => k !== '$schema').join(', ')})`;
    case 'duplicateKey':
      return `${key} is set twice`;
    case 'range':
      return `${key} is ${p.given}, out of bounds (${p.expected})`;
    case 'integer':
      return `${key} is ${p.given}, not a whole number`;
    case 'enum':
      return `${key} is ${p.given}, not one of ${p.expected}`;
    case 'glob':
      return `${key} holds ${p.given}, not a glob (${p.expected} is expected)`;
    default:
      return `${key} is ${p.given}, expected ${p.expected}`;
  }
}

/** The one message for an invalid file: its first problem, and how many more there are. */
export function configErrorMessage(file: string, problems: ConfigProblem[]): string {
  const first = problems[0];
  if (!first) return `${file}: invalid`;
  const more = problems.length - 1;
  return `${problemLocation(first)}: ${describeConfigProblem(first)}${more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : ''}`;
}
