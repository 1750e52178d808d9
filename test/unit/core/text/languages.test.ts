// Languages by file name (src/core/text/languages.ts, languageTable.ts) and their comments
// (comments.ts): every row of the table, with a sample program, must give the same tokens and
// fingerprints whatever license header it carries, and different ones for a real change of code;
// the README's table "Languages" must be the table of the code.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fingerprintText } from '../../../../src/core/fingerprint/fingerprint';
import { LANGUAGES, type LanguageEntry } from '../../../../src/core/text/languageTable';
import { languageOf, type CommentSyntax } from '../../../../src/core/text/languages';
import { TokenBuffer, tokenizeCode } from '../../../../src/core/text/tokenize';
import { languagesTable } from '../../helpers/languageDocs';
import { commentHeaders, LICENSE_A, LICENSE_B, SAMPLES } from '../../helpers/languageSamples';

const REPO = path.join(__dirname, '..', '..', '..', '..');

/** The token hashes of a code text (offsets left out: headers move them). */
function tokens(text: string, file: string): string[] {
  const buf = new TokenBuffer(16);
  tokenizeCode(text, languageOf(file), {}, buf);
  return Array.from({ length: buf.length }, (_, i) => `${buf.hi[i]}:${buf.lo[i]}`);
}

/**
 * The whole file's fingerprint. (Not its sections': their boundaries come from the text's lines
 * and blocks, language-agnostic, so a header can add or move a section; the tokens in it stay.)
 */
function fingerprint(text: string, file: string): string {
  const d = fingerprintText(text, file, { minTokens: 1 });
  return JSON.stringify(d.file && [d.file.hi, d.file.lo, d.file.tokens, d.file.features, Array.from(d.file.sketch)]);
}

const hasComments = (c: CommentSyntax): boolean => c.line.length + c.block.length + (c.lineStart?.length ?? 0) + (c.lineBlock?.length ?? 0) > 0;

function rowOf(file: string): LanguageEntry | undefined {
  const base = path.basename(file).toLowerCase();
  return LANGUAGES.find((e) => e.names?.some((n) => n.toLowerCase() === base)) ?? LANGUAGES.find((e) => e.extensions.some((x) => base.endsWith(`.${x}`)));
}

describe('languages', () => {
  describe('languageOf: by whole name, then extension, then a known name with another extension', () => {
    const comments = (p: string) => languageOf(p).comments;

    it('the Ruby family: extensions and the usual file names', () => {
      for (const p of ['a.rb', 'x.gemspec', 'x.podspec', 'tasks.rake', 'config.ru', 'Podfile', 'Gemfile', 'Rakefile', 'Vagrantfile', 'fastlane/Fastfile', 'Brewfile', 'Guardfile', 'Berksfile', 'Capfile']) {
        assert.deepEqual(comments(p).line, ['#'], p);
        assert.deepEqual(comments(p).lineBlock, [['=begin', '=end']], p);
      }
    });

    it('CMakeLists.txt is CMake though .txt is prose; names match in any case', () => {
      assert.equal(languageOf('notes.txt').kind, 'prose');
      for (const p of ['CMakeLists.txt', 'src/cmakelists.TXT', 'C:\\proj\\CMakeLists.txt', 'x.cmake']) {
        assert.equal(languageOf(p).kind, 'code', p);
        assert.deepEqual(comments(p).block[0], ['#[[', ']]'], p);
      }
      assert.equal(comments('DOCKERFILE'), comments('Dockerfile'));
      assert.equal(comments('makefile'), comments('Makefile'));
    });

    it('Dockerfile and Makefile variants; a known extension still wins over a known name', () => {
      for (const p of ['Dockerfile', 'Dockerfile.dev', 'docker/Dockerfile.prod.arm64', 'api.dockerfile', 'Containerfile', 'Containerfile.ci', 'Makefile', 'GNUmakefile', 'Makefile.am', 'Makefile.in', 'rules.mk', 'x.mak']) {
        assert.equal(comments(p), languageOf('x.sh').comments, p);
      }
      assert.equal(languageOf('Dockerfile.md').kind, 'prose');
      assert.equal(comments('Makefile.py'), languageOf('x.py').comments);
      assert.equal(comments('.env.local'), comments('.env'));
    });

    it('prose by name: README, LICENSE and the like, with or without an extension', () => {
      for (const p of ['README', 'LICENSE', 'LICENSE.MIT', 'licence', 'COPYING', 'CHANGELOG', 'docs/NOTICE', 'README.md', 'x.rst']) assert.equal(languageOf(p).kind, 'prose', p);
      assert.equal(languageOf('license.ts').kind, 'code');
    });

    it('the quote rule: no strings in single quotes where \' is a lifetime, quote, attribute or transpose', () => {
      for (const p of ['a.rs', 'a.clj', 'a.el', 'a.lisp', 'a.hs', 'a.elm', 'a.ml', 'a.fs', 'a.v', 'a.adb', 'a.jl', 'a.tex', 'a.vb', 'a.bat']) assert.equal(languageOf(p).singleQuoteStrings, false, p);
      for (const p of ['a.ts', 'a.py', 'a.rb', 'a.sh', 'a.sql', 'a.lua', 'a.go', 'a.java', 'a.php', 'a.pl', 'a.ps1', 'x.unknown']) assert.equal(languageOf(p).singleQuoteStrings, true, p);
    });

    it('unknown names are code with C-like comments', () => {
      for (const p of ['x.unknown', 'NOEXT', 'x.', '.hidden']) {
        assert.equal(languageOf(p).kind, 'code', p);
        assert.deepEqual(comments(p), { line: ['//'], block: [['/*', '*/']] }, p);
      }
    });
  });

  describe('the table', () => {
    it('fits the native kernel: openers, their lengths, languages (native/comments.h, fingerprint.h)', () => {
      const header = fs.readFileSync(path.join(REPO, 'native', 'comments.h'), 'utf8');
      const maxOpeners = Number(/#define MAX_OPENERS (\d+)/.exec(header)![1]);
      const maxLen = Number(/#define MAX_OPENER_LEN (\d+)/.exec(header)![1]);
      const maxLangs = Number(/#define MAX_LANGS (\d+)/.exec(fs.readFileSync(path.join(REPO, 'native', 'fingerprint.h'), 'utf8'))![1]);
      const kinds = new Set<string>();
      for (const e of LANGUAGES) {
        const c = e.comments;
        kinds.add(`${LANGUAGES.findIndex((f) => f.comments === c)}/${e.singleQuoteStrings}`);
        const lists = [c.line, c.block.map((b) => b[0]), c.block.map((b) => b[1]), c.lineStart ?? [], (c.lineBlock ?? []).map((b) => b[0]), (c.lineBlock ?? []).map((b) => b[1])];
        for (const list of lists) {
          assert.ok(list.length <= maxOpeners, `${e.name}: ${list.length} openers`);
          for (const o of list) {
            assert.ok(o.length >= 1 && o.length <= maxLen, `${e.name}: '${o}'`);
            assert.ok(o.charCodeAt(0) < 128 && o.charCodeAt(0) > 32, `${e.name}: '${o}' starts with a printable ASCII character`);
          }
        }
      }
      assert.ok(kinds.size + 1 <= maxLangs, `${kinds.size} syntaxes and quote rules`);
    });

    it('equal syntaxes are one object (the kernel defines one language per object); extensions are lower case', () => {
      const syntaxes = [...new Set(LANGUAGES.map((e) => e.comments))];
      const seen = new Map<string, CommentSyntax>();
      for (const s of syntaxes) {
        const key = JSON.stringify(s);
        assert.ok(!seen.has(key), `two objects for ${key}`);
        seen.set(key, s);
      }
      for (const e of LANGUAGES) for (const x of e.extensions) assert.match(x, /^[a-z0-9+_-]+$/, `${e.name}: ${x}`);
    });

    it('every row that has comments has a sample program below', () => {
      for (const e of LANGUAGES) {
        if (e.kind === 'prose') continue;
        assert.ok(SAMPLES.some(([p]) => rowOf(p) === e), `no sample for ${e.name}`);
      }
      for (const [p] of SAMPLES) assert.ok(rowOf(p), `${p} is in no row`);
    });
  });

  describe('comments are not code: the same tokens and fingerprint whatever the license header', () => {
    for (const [file, body] of SAMPLES) {
      const row = rowOf(file);
      it(`${row?.name ?? '?'} (${file})`, () => {
        const { comments } = languageOf(file);
        assert.ok(body.includes('42'), 'the sample holds 42');
        const base = tokens(body, file);
        const fp = fingerprint(body, file);
        assert.ok(base.length >= 8, `${base.length} tokens`);
        if (hasComments(comments)) {
          const a = commentHeaders(comments, LICENSE_A);
          const b = commentHeaders(comments, LICENSE_B);
          assert.ok(a.length >= 1);
          for (let i = 0; i < a.length; i++) {
            // Header A in one style against header B in the next: both must vanish.
            const one = a[i] + body;
            const other = b[(i + 1) % b.length] + body;
            assert.deepEqual(tokens(one, file), base, `header style ${i}:\n${a[i]}`);
            assert.deepEqual(tokens(other, file), base, `header style ${(i + 1) % b.length}:\n${b[(i + 1) % b.length]}`);
            assert.equal(fingerprint(one, file), fp);
            assert.equal(fingerprint(other, file), fp);
          }
        }
        // A real change of code: 42 becomes 43.
        const changed = body.replace('42', '43');
        assert.notDeepEqual(tokens(changed, file), base, 'a changed number changes the tokens');
        assert.notEqual(fingerprint(changed, file), fp, 'and the fingerprint');
      });
    }
  });

  describe('comment syntaxes at their edges', () => {
    const t = (text: string, file: string) => tokens(text, file).length;

    it("Ruby's =begin/=end and Perl's POD only at column 0, closed only by a closer at column 0", () => {
      assert.equal(t('=begin\nx y z\n=end trailing words\n', 'a.rb'), 0);
      assert.equal(t('a\n=begin\n  =end\nstill comment\n=end\nb\n', 'a.rb'), 2);
      assert.equal(t('x =begin', 'a.rb'), 3, 'not at column 0: code');
      assert.equal(t('=begin never closed\nx y\n', 'a.rb'), 0);
      assert.equal(t('1;\n=head1 NAME\n\nFoo - bar\n\n=cut\n1;\n', 'a.pm'), 4);
      assert.equal(t('my $x = 1; # c\n=pod\ntext\n=cut\n', 'a.pl'), 5);
    });

    it('Vim\'s " and batch REM only first on a line; INI ; and # likewise', () => {
      assert.deepEqual(tokens('" comment\n  " indented\necho "s"\n', 'a.vim'), tokens('echo "s"', 'a.vim'));
      assert.equal(t('REM a b\n  rem c d\n::e f\n@REM g\nremove x\n', 'a.bat'), 2);
      assert.equal(t('x = 1 ; 2\n; c\n  # d\n', 'a.ini'), 5);
      assert.equal(t("' c\nx = 1 ' d\nREM e\n", 'a.vb'), 3);
    });

    it('blocks before lines: Lua long brackets, CMake brackets, PowerShell, Haskell, Julia, Nim, Pascal', () => {
      assert.equal(t('--[==[ a ]] b ]==] x', 'a.lua'), 1);
      assert.equal(t('---[[ line\nx', 'a.lua'), 1);
      assert.equal(t('#[[ a\nb ]] x # c', 'CMakeLists.txt'), 1);
      assert.equal(t('<# a\n#> x # c', 'a.ps1'), 1);
      assert.equal(t('{- a\n-} x -- c', 'a.hs'), 1);
      assert.equal(t('#= a\n=# x # c', 'a.jl'), 1);
      assert.equal(t('#[ a\n]# x # c', 'a.nim'), 1);
      assert.equal(t('{ a } (* b *) x // c', 'a.pas'), 1);
      assert.equal(t('/+ a +/ x', 'a.d'), 1);
    });
  });

  it("the README's table \"Languages\" is the table of the code", () => {
    const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const section = /\n## Languages\n([\s\S]*?)(?=\n## )/.exec(readme)?.[1];
    assert.ok(section, 'README.md has a section "## Languages"');
    const table = section.split('\n').filter((l) => l.startsWith('|')).join('\n');
    const expected = languagesTable();
    if (table !== expected) {
      const want = expected.split('\n');
      const have = table.split('\n');
      const first = want.findIndex((l, i) => l !== have[i]);
      assert.fail(`README.md's table differs from the code at row ${first}:\n  README: ${have[first]}\n  code:   ${want[first]}\nThe table of the code:\n${expected}`);
    }
  });
});
