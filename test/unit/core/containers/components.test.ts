// Vue and Svelte components by block (src/core/containers/components.ts): which text is which
// block in which language, and the sections of a component — each block, and the functions of
// its script — with the file's own line numbers.
import { strict as assert } from 'node:assert';
import { blockLanguage, componentText } from '../../../../src/core/containers/components';
import { containerText } from '../../../../src/core/containers/container';
import { fingerprintText } from '../../../../src/core/fingerprint/fingerprint';
import { languageOf } from '../../../../src/core/text/languages';

/** The text of each part and its language's file extension (JavaScript and TypeScript are one language: `js`). */
function blocks(text: string): Array<[string, string]> {
  const names = new Map([['js', languageOf('x.js')], ['coffee', languageOf('x.coffee')], ['css', languageOf('x.css')], ['scss', languageOf('x.scss')], ['html', languageOf('x.html')]]);
  return componentText(text).parts.map((p) => [text.slice(p.startOffset, p.endOffset), [...names].find(([, l]) => l === p.lang)?.[0] ?? '?']);
}

/** 1-based line of the first line holding `needle`. */
const lineOf = (text: string, needle: string): number => text.slice(0, text.indexOf(needle)).split('\n').length;

const TOTAL = `function totalPrice(list, discount) {
  let sum = 0;
  for (const entry of list) {
    if (entry.quantity <= 0) continue;
    sum += entry.price * entry.quantity;
  }
  const reduced = sum - sum * discount;
  return Math.round(reduced * 100) / 100;
}`;

const VUE = `<template>
  <div class="list">
    <!-- <script>not a block</script> -->
    <h2>{{ title }}</h2>
    <template v-if="ok"><li v-for="item in items" :key="item.id">{{ item.name }}</li></template>
  </div>
</template>

<script setup lang="ts">
import { computed, ref } from 'vue';
const items = ref<Array<{ id: number; name: string }>>([]);

${TOTAL}
const total = computed(() => totalPrice(items.value, 0.1));
</script>

<style scoped lang="scss">
.list { margin: 0; .item { padding: 2px; } }
</style>
`;

const SVELTE = `<script context="module">
  export const prerender = true;
</script>

<script lang="ts">
  export let name: string;

${TOTAL.replace(/^/gm, '  ')}
</script>

<h1>Hello {name}!</h1>
<p>Total: {totalPrice([], 0)}</p>

<style>
  h1 { color: purple; }
</style>
`;

describe('Vue and Svelte components by block', () => {
  it('Vue: the template as HTML, <script setup lang="ts"> as TypeScript, <style lang="scss"> as SCSS; the tags are not read', () => {
    const b = blocks(VUE);
    assert.deepEqual(b.map(([, l]) => l), ['html', 'js', 'scss']);
    assert.ok(b[0][0].startsWith('<template>') && b[0][0].endsWith('</template>'));
    assert.ok(b[0][0].includes('<!-- <script>not a block</script> -->'), 'a <script> in a comment opens no block');
    assert.ok(b[1][0].startsWith("import { computed, ref } from 'vue';") && b[1][0].endsWith('0.1));'));
    assert.equal(b[2][0], '.list { margin: 0; .item { padding: 2px; } }');
    for (const [text] of b) assert.ok(!/<\/?(script|style)\b[^>]*>\s*$/.test(text) || text.includes('<!--'), text);
  });

  it('Svelte: scripts (module and instance) and style; the markup between them as HTML', () => {
    const b = blocks(SVELTE);
    // (The blank space between the two scripts is no part.)
    assert.deepEqual(b.map(([, l]) => l), ['js', 'js', 'html', 'css']);
    assert.equal(b[0][0], '  export const prerender = true;');
    assert.ok(b[2][0].startsWith('<h1>') && b[2][0].endsWith('</p>'));
  });

  it('parts start and end on the lines of their text (file lines)', () => {
    const c = componentText(VUE);
    const lines = VUE.split('\n');
    for (const p of c.parts) {
      const text = VUE.slice(p.startOffset, p.endOffset);
      assert.equal(lines[p.startLine - 1].trim().startsWith(text.split('\n')[0].trim()), true, text.slice(0, 40));
      assert.equal(p.endLine, lineOf(VUE, text) + text.split('\n').length - 1);
    }
  });

  it('a block without its closing tag runs to the end; lang in any quoting; unknown lang: the default', () => {
    assert.deepEqual(blocks('<script lang=coffee>\nx = 1\n').map(([, l]) => l), ['coffee']);
    assert.deepEqual(blocks('<script type="module" lang="coffee" >x = 1</script>').map(([, l]) => l), ['coffee']);
    assert.deepEqual(blocks("<style lang='scss'>a { b: c }</style>").map(([, l]) => l), ['scss']);
    assert.equal(blockLanguage('script', ' lang="klingon"'), languageOf('x.js'));
    assert.equal(blockLanguage('style', ' lang="less"'), languageOf('x.less'));
    assert.equal(blockLanguage('script', ' setup lang="tsx"'), languageOf('x.tsx'));
    assert.equal(blockLanguage('script', ' setup lang="coffee"'), languageOf('x.coffee'));
    assert.notEqual(languageOf('x.coffee'), languageOf('x.js'));
    assert.deepEqual(blocks(''), []);
    assert.deepEqual(blocks('<scripts>x</scripts>').map(([, l]) => l), ['html'], '<scripts> is no <script>');
    assert.equal(containerText('A.VUE', VUE) !== null && containerText('x.svelte', SVELTE) !== null && containerText('x.astro', VUE), null);
  });

  it('comments by block: `//` is a comment in a script, text in the template', () => {
    const tokens = (t: string) => fingerprintText(t, 'a.vue', { minTokens: 1 }).file?.tokens ?? 0;
    const plain = '<template><p>a b</p></template>\n<script>\nlet x = 1;\n</script>\n';
    assert.equal(tokens(plain.replace('let x', '// note\nlet x')), tokens(plain));
    assert.ok(tokens(plain.replace('a b', 'a // note b')) > tokens(plain));
    assert.equal(tokens(plain.replace('<p>', '<!-- note --><p>')), tokens(plain));
  });

  it('sections: each block, and the functions of a script, at their lines in the file', () => {
    for (const [file, text] of [['List.vue', VUE], ['Hello.svelte', SVELTE]]) {
      const doc = fingerprintText(text, file, { minTokens: 10 });
      const ranges = doc.sections.map((s) => [s.startLine, s.endLine]);
      const fnStart = lineOf(text, 'function totalPrice');
      const fnEnd = fnStart + TOTAL.split('\n').length - 1;
      assert.ok(ranges.some(([s, e]) => s === fnStart && e === fnEnd), `${file}: the function at ${fnStart}-${fnEnd} in ${JSON.stringify(ranges)}`);
      if (file === 'List.vue') {
        // The script block: from its first to its last line of code.
        assert.ok(ranges.some(([s, e]) => s === lineOf(text, 'import { computed') && e === lineOf(text, 'const total')), JSON.stringify(ranges));
      }
    }
  });

  it('the same function in a Vue and a Svelte file: the same section fingerprint (tokens, not indentation)', () => {
    const fn = (text: string, file: string) => {
      const doc = fingerprintText(text, file, { minTokens: 10 });
      const start = lineOf(text, 'function totalPrice');
      return doc.sections.find((s) => s.startLine === start);
    };
    const a = fn(VUE, 'List.vue');
    const b = fn(SVELTE.replace('lang="ts"', ''), 'Hello.svelte');
    assert.ok(a && b);
    assert.deepEqual([a.hi, a.lo, a.tokens], [b.hi, b.lo, b.tokens]);
  });
});
