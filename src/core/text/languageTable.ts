/**
 * The languages NearDup knows: for each, the file extensions and file names that mean it, how its
 * comments look, whether `'` opens a string and whether `/` may open a regular expression. languages.ts answers by file name from this table;
 * the README's table "Languages" lists the same rows (a unit test holds them together).
 *
 * The comment syntaxes are shared constants: the native kernel defines one language per syntax
 * object (and quote rule), so equal syntaxes must be the same object.
 */
import type { ContentKind } from '../types';

export interface CommentSyntax {
  /** Line comment openers, e.g. '//' or '#': the comment runs to the end of the line. */
  line: string[];
  /** Block comment pairs, e.g. ['/*', '*\/'] (not nested: the first closer ends the comment). */
  block: Array<[string, string]>;
  /** Line comment openers that count only first on their line, after spaces or tabs (Vim's `"`, batch `REM `). */
  lineStart?: string[];
  /**
   * Blocks of whole lines: the opener at the start of a line (column 0), the comment up to the end
   * of the first later line that starts with the closer (Ruby's `=begin` … `=end`, Perl's POD).
   */
  lineBlock?: Array<[string, string]>;
}

export interface LanguageEntry {
  /** As the README's table names it. */
  name: string;
  kind: ContentKind;
  comments: CommentSyntax;
  /** Whether `'` opens a string literal (false where it is an apostrophe, lifetime, quote or attribute). */
  singleQuoteStrings: boolean;
  /** Whether `/` may open a regular-expression literal (comments.ts): JavaScript and TypeScript only. */
  regexLiterals?: boolean;
  /** Extensions, lower case, without the dot. */
  extensions: string[];
  /** Whole file names (matched case-insensitively); a name wins over its extension (CMakeLists.txt). */
  names?: string[];
  /** Names that also mean `name.anything` when that extension is not known (Dockerfile.dev, Makefile.am, .env.local). */
  prefixes?: string[];
  /**
   * How the file is read when it is not one text in one language (core/containers: notebooks,
   * components by block); the README's table shows it after the comments.
   */
  parts?: string;
}

// ------------------------------------------------------------------------------ comment syntaxes

export const C_LIKE: CommentSyntax = { line: ['//'], block: [['/*', '*/']] };
const SLASHES: CommentSyntax = { line: ['//'], block: [] };
const D_LANG: CommentSyntax = { line: ['//'], block: [['/*', '*/'], ['/+', '+/']] };
const COMPONENT: CommentSyntax = { line: ['//'], block: [['/*', '*/'], ['<!--', '-->']] };
const HASH: CommentSyntax = { line: ['#'], block: [] };
const HASH_C: CommentSyntax = { line: ['#', '//'], block: [['/*', '*/']] };
const NIX: CommentSyntax = { line: ['#'], block: [['/*', '*/']] };
const RUBY: CommentSyntax = { line: ['#'], block: [], lineBlock: [['=begin', '=end']] };
const POD_OPENERS = ['=pod', '=head', '=over', '=item', '=begin', '=for', '=encoding'];
const PERL: CommentSyntax = { line: ['#'], block: [], lineBlock: POD_OPENERS.map((o): [string, string] => [o, '=cut']) };
const POWERSHELL: CommentSyntax = { line: ['#'], block: [['<#', '#>']] };
const CMAKE: CommentSyntax = { line: ['#'], block: [['#[[', ']]'], ['#[=[', ']=]'], ['#[==[', ']==]']] };
const JULIA: CommentSyntax = { line: ['#'], block: [['#=', '=#']] };
const NIM: CommentSyntax = { line: ['#'], block: [['#[', ']#']] };
const INI: CommentSyntax = { line: [], block: [], lineStart: ['#', ';'] };
const PROPERTIES: CommentSyntax = { line: [], block: [], lineStart: ['#', '!'] };
const SQL: CommentSyntax = { line: ['--'], block: [['/*', '*/']] };
const DASHES: CommentSyntax = { line: ['--'], block: [] };
const HASKELL: CommentSyntax = { line: ['--'], block: [['{-', '-}']] };
const LUA: CommentSyntax = { line: ['--'], block: [['--[[', ']]'], ['--[=[', ']=]'], ['--[==[', ']==]']] };
const MARKUP: CommentSyntax = { line: [], block: [['<!--', '-->']] };
const CSS: CommentSyntax = { line: [], block: [['/*', '*/']] };
const HANDLEBARS: CommentSyntax = { line: [], block: [['{{!--', '--}}'], ['{{!', '}}'], ['<!--', '-->']] };
const JINJA: CommentSyntax = { line: [], block: [['{#', '#}'], ['<!--', '-->']] };
const ERB: CommentSyntax = { line: [], block: [['<%#', '%>'], ['<!--', '-->']] };
const RAZOR: CommentSyntax = { line: [], block: [['@*', '*@'], ['<!--', '-->']] };
const SEMICOLON: CommentSyntax = { line: [';'], block: [] };
const LISP: CommentSyntax = { line: [';'], block: [['#|', '|#']] };
const PERCENT: CommentSyntax = { line: ['%'], block: [] };
const ML: CommentSyntax = { line: [], block: [['(*', '*)']] };
const FSHARP: CommentSyntax = { line: ['//'], block: [['(*', '*)']] };
const PASCAL: CommentSyntax = { line: ['//'], block: [['{', '}'], ['(*', '*)']] };
const FORTRAN: CommentSyntax = { line: ['!'], block: [] };
const VIM: CommentSyntax = { line: [], block: [], lineStart: ['"'] };
const BATCH: CommentSyntax = { line: [], block: [], lineStart: ['REM ', 'rem ', 'Rem ', '@REM ', '@rem ', '::'] };
const BASIC: CommentSyntax = { line: ["'"], block: [], lineStart: ['REM ', 'rem ', 'Rem '] };
export const NONE: CommentSyntax = { line: [], block: [] };

// ------------------------------------------------------------------------------------ languages

function code(
  name: string,
  comments: CommentSyntax,
  singleQuoteStrings: boolean,
  extensions: string,
  names?: string,
  prefixes?: string,
): LanguageEntry {
  const words = (s: string | undefined) => (s ? s.split(' ') : undefined);
  return { name, kind: 'code', comments, singleQuoteStrings, extensions: words(extensions) ?? [], names: words(names), prefixes: words(prefixes) };
}

/** Every language, one row of the README's table each. An extension or name belongs to one row. */
export const LANGUAGES: LanguageEntry[] = [
  {
    name: 'Prose: Markdown, plain text, reStructuredText, AsciiDoc, Org…',
    kind: 'prose',
    comments: NONE,
    singleQuoteStrings: false,
    extensions: 'md markdown mdown mkd mkdn mdx txt text rst adoc asciidoc org textile wiki rmd qmd rdoc pod'.split(' '),
    names: 'README LICENSE LICENCE COPYING COPYRIGHT AUTHORS CONTRIBUTORS CHANGELOG CHANGES HISTORY NEWS NOTICE PATENTS THANKS'.split(' '),
    prefixes: 'README LICENSE LICENCE COPYING CHANGELOG'.split(' '),
  },
  { ...code('JavaScript, TypeScript', C_LIKE, true, 'js mjs cjs jsx ts mts cts tsx'), regexLiterals: true },
  code('Java', C_LIKE, true, 'java'),
  code('Kotlin', C_LIKE, true, 'kt kts'),
  code('Scala', C_LIKE, true, 'scala sc sbt'),
  code('Groovy, Gradle, Jenkinsfile', C_LIKE, true, 'groovy gvy gy gsh gradle', 'Jenkinsfile', 'Jenkinsfile'),
  code('C, C++, Objective-C, CUDA', C_LIKE, true, 'c h cc cpp cxx c++ hpp hh hxx h++ ipp inl tpp ino cu cuh m mm'),
  code('C#', C_LIKE, true, 'cs csx cake'),
  code('Go', C_LIKE, true, 'go', 'go.mod go.work'),
  code('Rust', C_LIKE, false, 'rs'),
  code('Swift', C_LIKE, true, 'swift'),
  code('Dart', C_LIKE, true, 'dart'),
  code('PHP', C_LIKE, true, 'php'),
  code('D', D_LANG, true, 'd di'),
  code('Protocol Buffers, Solidity', C_LIKE, true, 'proto sol'),
  code('Haxe, ActionScript, Vala, Odin, Bicep, Prisma', C_LIKE, true, 'hx as vala vapi odin bicep prisma'),
  code('Shaders: GLSL, HLSL, WGSL, Metal', C_LIKE, true, 'glsl vert frag geom comp tesc tese hlsl wgsl metal'),
  code('JSON with comments', C_LIKE, true, 'json5 jsonc code-workspace', 'tsconfig.json jsconfig.json .eslintrc.json devcontainer.json .devcontainer.json'),
  code('Verilog, SystemVerilog', C_LIKE, false, 'v vh sv svh'),
  code('Zig, Gleam, CUE', SLASHES, true, 'zig zon gleam cue'),
  {
    ...code('Vue, Svelte', MARKUP, true, 'vue svelte'),
    parts: 'by block: `<script>` as JavaScript or by its `lang` (`ts`, `tsx`…), `<style>` as CSS or by its `lang` (`scss`, `less`, `sass`, `stylus`), the rest (`<template>`, markup) as HTML',
  },
  code('Astro', COMPONENT, true, 'astro'),
  code('HTML, XML, SVG, MSBuild', MARKUP, true, 'html htm xhtml xml svg xsl xslt xsd wsdl xaml csproj vbproj fsproj vcxproj props targets nuspec resx plist xib storyboard vue-html'),
  code('CSS', CSS, true, 'css'),
  code('SCSS, Less, Sass, Stylus', C_LIKE, true, 'scss less sass styl'),
  code('Handlebars, Mustache', HANDLEBARS, true, 'hbs handlebars mustache'),
  code('Jinja, Twig, Nunjucks', JINJA, true, 'jinja jinja2 j2 twig njk'),
  code('ERB, EJS, EEx', ERB, true, 'erb ejs eex'),
  code('Razor', RAZOR, true, 'cshtml razor'),
  code('JSON', NONE, true, 'json jsonl ndjson geojson webmanifest'),
  {
    ...code('Jupyter notebooks', NONE, true, 'ipynb'),
    parts: "by cell: code cells in the notebook's language (`kernelspec`, `language_info`; Python when none), Markdown cells as prose; outputs, raw cells and metadata left out",
  },
  code('CSV, TSV', NONE, true, 'csv tsv'),
  code('Python', HASH, true, 'py pyw pyi pyx pxd pxi gyp gypi smk', 'SConstruct SConscript Snakefile'),
  code('Starlark: Bazel, Buck, Tilt', HASH, true, 'bzl bazel star', 'BUILD WORKSPACE BUCK Tiltfile'),
  code(
    'Ruby',
    RUBY,
    true,
    'rb rbw rake gemspec podspec ru thor jbuilder rabl builder rbi',
    'Gemfile Rakefile Podfile Vagrantfile Fastfile Appfile Matchfile Pluginfile Brewfile Guardfile Berksfile Capfile Dangerfile Puppetfile Thorfile .irbrc .pryrc',
  ),
  code(
    'Shell',
    HASH,
    true,
    'sh bash zsh ksh fish bats ebuild eclass',
    '.bashrc .bash_profile .bash_logout .bash_aliases .profile .zshrc .zshenv .zprofile .zlogin .zlogout .kshrc .envrc PKGBUILD APKBUILD',
  ),
  code('Dockerfile', HASH, true, 'dockerfile containerfile', 'Dockerfile Containerfile', 'Dockerfile Containerfile'),
  code('Makefile', HASH, true, 'mk mak make', 'Makefile GNUmakefile BSDmakefile', 'Makefile GNUmakefile'),
  code('CMake', CMAKE, true, 'cmake', 'CMakeLists.txt'),
  code('Meson, Ninja, Just', HASH, true, 'ninja just', 'meson.build meson_options.txt meson.options Justfile .justfile'),
  code('YAML', HASH, true, 'yaml yml cff', '.clang-format .clang-tidy'),
  code('TOML', HASH, true, 'toml', 'Pipfile'),
  code('INI, .editorconfig, Git config', INI, false, 'ini cfg cnf inf desktop service editorconfig', '.editorconfig .gitconfig .gitmodules .npmrc .pylintrc pylintrc .flake8 .coveragerc'),
  code('Java properties', PROPERTIES, false, 'properties'),
  code(
    'Ignore and attribute files',
    HASH,
    true,
    'gitignore',
    '.gitignore .gitattributes .npmignore .dockerignore .eslintignore .prettierignore .stylelintignore .hgignore .helmignore .vscodeignore .gcloudignore CODEOWNERS',
  ),
  code('Other configuration: .conf, .env, .htaccess', HASH, true, 'conf env', '.env .htaccess', '.env'),
  code('SQL', SQL, true, 'sql ddl pgsql plsql psql hql'),
  code('Lua', LUA, true, 'lua luau rockspec'),
  code('Haskell, Elm, PureScript, Idris, Agda', HASKELL, false, 'hs hsc elm purs idr agda'),
  code('Ada, Cabal', DASHES, false, 'ada adb ads cabal', 'cabal.project'),
  code('VHDL', SQL, false, 'vhd vhdl'),
  code('PowerShell', POWERSHELL, true, 'ps1 psm1 psd1'),
  code('Perl', PERL, true, 'pl pm t psgi', 'cpanfile'),
  code('R', HASH, true, 'r', '.Rprofile'),
  code('Julia', JULIA, false, 'jl'),
  code('Elixir', HASH, true, 'ex exs'),
  code('Erlang', PERCENT, true, 'erl hrl escript', 'rebar.config'),
  code('TeX, LaTeX', PERCENT, false, 'tex sty ltx dtx'),
  code('Clojure, Emacs Lisp, Fennel, Hy', SEMICOLON, false, 'clj cljs cljc edn el fnl hy'),
  code('Common Lisp, Scheme, Racket', LISP, false, 'lisp lsp asd scm ss sld rkt'),
  code('Assembly', SEMICOLON, true, 'asm s'),
  code('OCaml, Standard ML', ML, false, 'ml mli mll mly sml'),
  code('F#', FSHARP, false, 'fs fsi fsx fsscript'),
  code('Pascal, Delphi', PASCAL, true, 'pas dpr lpr'),
  code('Fortran', FORTRAN, true, 'f for f77 f90 f95 f03 f08'),
  code('Vim script', VIM, true, 'vim', '.vimrc _vimrc .gvimrc vimrc gvimrc .exrc'),
  code('Batch', BATCH, false, 'bat cmd'),
  code('Visual Basic, VBScript', BASIC, false, 'vb vbs bas vba'),
  code('Nim', NIM, true, 'nim nims nimble'),
  code('Crystal, CoffeeScript, GraphQL, GDScript', HASH, true, 'cr coffee graphql gql gd'),
  code('Tcl, awk, sed', HASH, true, 'tcl awk sed'),
  code('Terraform, HCL', HASH_C, false, 'tf tfvars hcl'),
  code('Jsonnet, Thrift', HASH_C, true, 'jsonnet libsonnet thrift'),
  code('Nix', NIX, false, 'nix'),
];
