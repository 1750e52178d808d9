// A short program in each language of src/core/text/languageTable.ts (one per row; each holds the
// number 42 in code, which tests change to 43 for "a real code difference"), and license headers
// written in every comment style a syntax has: what the languages and native-kernel tests feed in.
import type { CommentSyntax } from '../../../src/core/text/languages';

export const SAMPLES: Array<[path: string, text: string]> = [
  ['src/app.ts', "import { readFile } from 'node:fs/promises';\n// Reads the answer.\nexport async function answer(path: string): Promise<number> {\n  const text = await readFile(path, 'utf8'); /* trailing */\n  return text.length > 0 ? 42 : 0;\n}\n"],
  ['Main.java', 'package demo;\n/** Entry point. */\npublic class Main {\n  public static void main(String[] args) {\n    int x = 42; // the answer\n    System.out.println("x = " + x + \'c\');\n  }\n}\n'],
  ['App.kt', 'package demo\n// Entry point.\nfun main(args: Array<String>) {\n    val x = 42 /* inline */\n    println("x = $x and ${args.size}")\n    val c = \'c\'\n}\n'],
  ['Main.scala', 'object Main {\n  // Entry point.\n  def main(args: Array[String]): Unit = {\n    val x = 42\n    println(s"x = $x " + \'c\')\n  }\n}\n'],
  ['build.gradle', "plugins { id 'java' } // plugins\ndependencies {\n    implementation 'org.example:lib:1.0' /* lib */\n}\ntasks.register('answer') { doLast { println 42 } }\n"],
  ['main.c', '#include <stdio.h>\n/* Prints the answer. */\nint main(void) {\n  int x = 42; // answer\n  printf("%d %c\\n", x, \'c\');\n  return 0;\n}\n'],
  ['Program.cs', 'using System;\n// Entry point.\npublic static class Program {\n    public static void Main() {\n        var x = 42; /* inline */\n        Console.WriteLine($"x = {x} {\'c\'}");\n    }\n}\n'],
  ['main.go', 'package main\n\nimport "fmt"\n\n// main prints the answer.\nfunc main() {\n\tx := 42 /* inline */\n\tfmt.Println("x =", x, \'c\')\n}\n'],
  ['main.rs', "// Returns the longer one.\nfn longest<'a>(a: &'a str, b: &'a str) -> &'a str {\n    if a.len() > b.len() { a } else { b } /* inline */\n}\nfn main() { let x = 42; println!(\"{} {}\", x, longest(\"a\", \"bc\")); }\n"],
  ['main.swift', 'import Foundation\n// Prints the answer.\nfunc answer() -> Int {\n    let x = 42 /* inline */\n    return x * 2\n}\nprint("x = \\(answer())")\n'],
  ['main.dart', "// Entry point.\nvoid main() {\n  final x = 42; /* inline */\n  print('x = $x');\n}\n"],
  ['index.php', "<?php\n// Prints the answer.\nfunction answer(int $x): int {\n    return $x + 42; /* inline */\n}\necho 'x = ' . answer(1);\n"],
  ['app.d', 'import std.stdio;\n/+ a D comment +/\nvoid main() {\n    int x = 42; // answer\n    writeln("x = ", x, \'c\'); /* inline */\n}\n'],
  ['api.proto', 'syntax = "proto3";\n// A request.\nmessage Request {\n  int32 id = 42; /* field */\n  string name = 2;\n}\n'],
  ['Main.hx', "class Main {\n  // Entry point.\n  static function main() {\n    var x = 42; /* inline */\n    trace('x = ' + x);\n  }\n}\n"],
  ['shader.frag', '#version 330 core\n// Fragment shader.\nout vec4 color;\nvoid main() {\n  float x = 42.0; /* inline */\n  color = vec4(x, 0.0, 0.0, 1.0);\n}\n'],
  ['tsconfig.json', '{\n  // compiler options\n  "compilerOptions": { "target": "es2022", "strict": true, /* inline */ "maxNodeModuleJsDepth": 42 }\n}\n'],
  ['top.v', "// Counter.\nmodule counter(input clk, output reg [7:0] q);\n  always @(posedge clk) q <= q + 8'd42; /* inline */\nendmodule\n"],
  ['main.zig', 'const std = @import("std");\n// Entry point.\npub fn main() void {\n    const x: u32 = 42;\n    std.debug.print("x = {}\\n", .{x});\n}\n'],
  ['App.vue', '<template>\n  <!-- greeting -->\n  <p class="x">{{ answer }}</p>\n</template>\n<script>\n// component\nexport default { data() { return { answer: 42 }; } }; /* inline */\n</script>\n<style>\np { color: red; } /* style */\n</style>\n'],
  ['Page.astro', '---\n// page data\nconst answer = 42; /* inline */\n---\n<!-- greeting -->\n<p class="x">{answer}</p>\n'],
  ['analysis.ipynb', '{\n "cells": [\n  { "cell_type": "markdown", "metadata": {}, "source": ["# The answer\\n", "Computed below."] },\n  { "cell_type": "code", "metadata": {}, "execution_count": 1, "outputs": [{ "output_type": "stream", "text": ["forty-two\\n"] }],\n    "source": ["# the answer\\n", "x = 42  # inline\\n", "print(x, \'c\')"] }\n ],\n "metadata": { "kernelspec": { "language": "python", "name": "python3" } },\n "nbformat": 4, "nbformat_minor": 5\n}\n'],
  ['index.html', '<!DOCTYPE html>\n<html>\n  <!-- page -->\n  <body><p id="answer">42</p></body>\n</html>\n'],
  ['site.css', '/* Site styles */\nbody { margin: 0; padding: 42px; }\n.answer { color: #333; } /* inline */\n'],
  ['site.scss', '// Site styles\n$pad: 42px;\nbody { padding: $pad; } /* inline */\n'],
  ['page.hbs', '{{!-- page --}}\n<p class="answer">{{answer}} 42</p>\n{{! short }}\n{{#each items}}<li>{{this}}</li>{{/each}}\n'],
  ['page.j2', '{# page #}\n<p>{{ answer }} 42</p>\n{% for item in items %}<li>{{ item }}</li>{% endfor %}\n'],
  ['page.erb', '<%# page %>\n<p><%= answer %> 42</p>\n<% items.each do |item| %><li><%= item %></li><% end %>\n'],
  ['Page.cshtml', '@* page *@\n<p>@Model.Answer 42</p>\n@foreach (var item in Model.Items) { <li>@item</li> }\n'],
  ['data.json', '{ "answer": 42, "items": [1, 2, 3], "url": "http://example.com/#x" }\n'],
  ['data.csv', 'id,answer\n1,42\n2,7\n'],
  ['app.py', "import os\n# Returns the answer.\ndef answer(path):\n    x = 42  # inline\n    return x if os.path.exists(path) else 'none'\n"],
  ['BUILD', '# Rules.\nload("@rules_cc//cc:defs.bzl", "cc_binary")\ncc_binary(\n    name = "answer",  # inline\n    srcs = ["main.c"],\n    copts = ["-DANSWER=42"],\n)\n'],
  ['app.rb', '# Returns the answer.\nclass Answer\n  def value(x)\n    x + 42 # inline\n  end\nend\nputs Answer.new.value(1)\n'],
  ['run.sh', '#!/bin/sh\n# Runs the answer.\nset -e\nx=42 # inline\necho "x = $x" \'done\'\n'],
  ['Dockerfile', '# Image.\nFROM node:20\nWORKDIR /app\nCOPY . .\nRUN npm ci # inline\nEXPOSE 42\nCMD ["node", "main.js"]\n'],
  ['Makefile', '# Build.\nCC = cc\nanswer: main.c\n\t$(CC) -DANSWER=42 -o $@ $< # inline\n'],
  ['CMakeLists.txt', 'cmake_minimum_required(VERSION 3.20)\n#[[ project ]]\nproject(answer C)\nadd_executable(answer main.c) # inline\ntarget_compile_definitions(answer PRIVATE ANSWER=42)\n'],
  ['meson.build', "# Build.\nproject('answer', 'c')\nexecutable('answer', 'main.c', c_args: ['-DANSWER=42']) # inline\n"],
  ['config.yml', '# Settings.\nname: answer\nvalue: 42 # inline\nitems:\n  - a\n  - b\n'],
  ['Cargo.toml', '# Package.\n[package]\nname = "answer"\nversion = "0.42.0" # inline\n'],
  ['setup.cfg', '[metadata]\nname = answer ; not a comment here\nvalue = 42\n  ; an indented comment\n# a comment\n'],
  ['app.properties', '# Settings.\napp.name=answer\napp.value=42\n! old-style comment\napp.greeting=Hello!\n'],
  ['.gitignore', '# Build output.\ndist/\n*.log\nanswer-42.txt\n'],
  ['nginx.conf', '# Server.\nserver {\n  listen 42; # inline\n  root /var/www;\n}\n'],
  ['schema.sql', "-- Tables.\nCREATE TABLE answer (id INT PRIMARY KEY, value INT DEFAULT 42); /* inline */\nSELECT value FROM answer WHERE id = 'x';\n"],
  ['init.lua', '--[[ Module. ]]\nlocal M = {}\n-- Returns the answer.\nfunction M.answer() return 42 end --[==[ long ]==]\nreturn M\n'],
  ['Main.hs', "{- Module. -}\nmodule Main where\n-- The answer.\nanswer :: Int\nanswer = 42\nmain = print (answer, 'c', foldl' (+) 0 [1, 2])\n"],
  ['main.adb', "-- Entry point.\nwith Ada.Text_IO;\nprocedure Main is\n   X : Integer := 42; -- inline\nbegin\n   Ada.Text_IO.Put_Line (Integer'Image (X));\nend Main;\n"],
  ['top.vhd', '-- Entity.\nentity top is\n  port (clk : in std_logic; q : out integer := 42); -- inline\nend entity;\n'],
  ['run.ps1', "<# Script. #>\nparam([int]$X = 42)\n# Prints the answer.\nWrite-Output \"x = $X\" 'done'\n"],
  ['App.pm', 'package App;\nuse strict;\n# The answer.\nsub answer { my ($x) = @_; return $x + 42; } # inline\n\n=head1 NAME\n\nApp - the answer\n\n=cut\n\n1;\n'],
  ['app.r', '# The answer.\nanswer <- function(x) {\n  x + 42 # inline\n}\nprint(answer(1))\n'],
  ['app.jl', "#= Module. =#\n# The answer.\nanswer(x) = x + 42\nA = [1 2; 3 4]'\nprintln(answer(1), A)\n"],
  ['app.ex', '# The answer.\ndefmodule App do\n  def answer(x), do: x + 42 # inline\nend\n'],
  ['app.erl', '% The answer.\n-module(app).\n-export([answer/1]).\nanswer(X) -> X + 42. % inline\n'],
  ['paper.tex', "% Paper.\n\\documentclass{article}\n\\begin{document}\nThe answer's 42. % inline\n\\end{document}\n"],
  ['core.clj', "; The answer.\n(ns app.core)\n(defn answer [x] (+ x 42)) ; inline\n(println (answer 1) 'sym)\n"],
  ['app.lisp', '#| Module. |#\n; The answer.\n(defun answer (x) (+ x 42)) ; inline\n(print (answer 1))\n'],
  ['boot.asm', '; Boot.\nsection .text\nglobal _start\n_start:\n  mov eax, 42 ; inline\n  ret\n'],
  ['app.ml', "(* The answer. *)\nlet answer x = x + 42\nlet () = print_int (answer 1)\nlet id (x : 'a) : 'a = x\n"],
  ['App.fs', "// The answer.\nmodule App\n(* block *)\nlet answer x = x + 42\nlet id (x: 'a) : 'a = x\nprintfn \"%d\" (answer 1)\n"],
  ['app.pas', "{ Program. }\nprogram Answer;\n(* The answer. *)\nvar x: Integer;\nbegin\n  x := 42; // inline\n  WriteLn('x = ', x);\nend.\n"],
  ['app.f90', "! The answer.\nprogram answer\n  integer :: x\n  x = 42 ! inline\n  print *, 'x = ', x\nend program answer\n"],
  ['.vimrc', '" Settings.\nset number\nlet g:answer = 42\n  " an indented comment\necho "x = " . g:answer\n'],
  ['run.bat', '@echo off\nREM Runs the answer.\nset X=42\n  rem indented\n:: label comment\necho x = %X%\n'],
  ['Module1.vb', "' The answer.\nModule Module1\n    Sub Main()\n        Dim x As Integer = 42 ' inline\n        Console.WriteLine(\"x = \" & x)\n    End Sub\nEnd Module\n"],
  ['app.nim', "#[ Module. ]#\n# The answer.\nproc answer(x: int): int = x + 42\necho answer(1), 'c'\n"],
  ['app.cr', '# The answer.\ndef answer(x)\n  x + 42 # inline\nend\nputs answer(1)\n'],
  ['app.tcl', '# The answer.\nproc answer {x} { return [expr {$x + 42}] }\nputs [answer 1]\n'],
  ['main.tf', '# Provider.\nresource "aws_instance" "web" {\n  ami           = "ami-7" // inline\n  instance_type = "t3.micro" /* size */\n  count         = 42\n}\n'],
  ['app.jsonnet', "// Config.\nlocal answer = 42; # inline\n{ value: answer, name: 'app' /* inline */ }\n"],
  ['default.nix', '# Package.\n{ pkgs ? import <nixpkgs> {} }:\npkgs.stdenv.mkDerivation { /* inline */\n  pname = "answer";\n  version = "42";\n}\n'],
];

export const LICENSE_A = ['Copyright (c) 2024 Example Corp.', 'Licensed under the MIT License.', 'See LICENSE for details.'];
export const LICENSE_B = [
  'SPDX-License-Identifier: Apache-2.0',
  'Copyright 2019 Someone Else and contributors',
  'Licensed under the Apache License, Version 2.0 (the "License");',
  'you may not use this file except in compliance with the License.',
];

/** A header of `lines` in every comment style of a syntax (none when it has no comments). */
export function commentHeaders(c: CommentSyntax, lines: string[]): string[] {
  const out: string[] = [];
  for (const open of c.line) out.push(lines.map((l) => `${open} ${l}\n`).join(''));
  for (const [open, close] of c.block) out.push(`${open}\n${lines.map((l) => ` ${l}\n`).join('')}${close}\n`);
  for (const open of c.lineStart ?? []) out.push(lines.map((l, i) => `${i === 1 ? '\t ' : ''}${open}${l}\n`).join(''));
  for (const [open, close] of c.lineBlock ?? []) out.push(`${open} ${lines[0]}\n\n${lines.slice(1).join('\n')}\n${close} here\n\n`);
  return out;
}
