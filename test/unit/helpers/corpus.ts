/**
 * Deterministic synthetic material for tests: code and prose with planted near duplicates.
 */
import { mulberry32 } from './random';

export { mulberry32 };

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tas', 'vor', 'quin', 'dex', 'pal', 'zu', 'bre', 'nok', 'sil', 'tar', 'ume', 'gri'];
function word(rnd: () => number, parts = 2): string {
  let w = '';
  for (let i = 0; i < parts; i++) w += SYLLABLES[Math.floor(rnd() * SYLLABLES.length)];
  return w;
}

/** A TypeScript-like function of about `lines` lines. */
export function codeFunction(rnd: () => number, lines = 12): string {
  const name = word(rnd, 3);
  const a = word(rnd);
  const b = word(rnd);
  const body: string[] = [];
  for (let i = 0; i < lines; i++) {
    const v = word(rnd);
    const op = ['+', '-', '*', '%'][Math.floor(rnd() * 4)];
    body.push(`  const ${v}${i} = ${a} ${op} ${Math.floor(rnd() * 1000)} + ${b}.${word(rnd)}(${Math.floor(rnd() * 9)});`);
  }
  return `export function ${name}(${a}: number, ${b}: Helper): number {\n${body.join('\n')}\n  return ${a};\n}\n`;
}

export function codeFile(rnd: () => number, functions = 6): string {
  const parts: string[] = [];
  for (let i = 0; i < functions; i++) parts.push(codeFunction(rnd, 8 + Math.floor(rnd() * 8)));
  return parts.join('\n');
}

/** English-like prose paragraphs. */
export function proseText(rnd: () => number, paragraphs = 6): string {
  const vocab = 'the system reads each file and splits text into tokens while the index keeps fingerprints of sections so that edited copies appear as close neighbours even after renaming variables or rewording sentences in documents written by different authors across many projects'.split(' ');
  const out: string[] = ['# ' + word(rnd, 3)];
  for (let p = 0; p < paragraphs; p++) {
    const s: string[] = [];
    for (let i = 0; i < 60; i++) s.push(rnd() < 0.3 ? word(rnd) : vocab[Math.floor(rnd() * vocab.length)]);
    out.push(s.join(' ') + '.');
  }
  return out.join('\n\n') + '\n';
}

/** Chinese-like prose built from common words. */
export function chineseText(rnd: () => number, paragraphs = 5): string {
  const vocab = '文本 相似 计算 指纹 哈希 算法 网页 去重 海量 数据 特征 权重 分词 签名 距离 比较 索引 查询 系统 文档 作者 编辑 复制 内容 结果 方法 模型 工程 速度 质量'.split(' ');
  const out: string[] = [];
  for (let p = 0; p < paragraphs; p++) {
    let s = '';
    for (let i = 0; i < 70; i++) s += vocab[Math.floor(rnd() * vocab.length)] + (rnd() < 0.1 ? '，' : '');
    out.push(s + '。');
  }
  return out.join('\n\n') + '\n';
}

/** Replaces about `rate` of the lines (or words for single-line text) with fresh material. */
export function editLines(text: string, rnd: () => number, rate: number): string {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() && rnd() < rate) lines[i] = lines[i].replace(/[A-Za-z]+/g, (m) => (rnd() < 0.5 ? m : m + 'x'));
  }
  return lines.join('\n');
}
