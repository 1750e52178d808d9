// Reads what a native binary (a Node addon, `.node`) was built for from its header: PE (Windows),
// Mach-O (macOS) or ELF (Linux), its CPU and, for ELF, its C library (glibc or musl, from the
// shared libraries it needs). Used by scripts/package-all.js to refuse a wrong or foreign binary
// in a platform package, and by its tests.
'use strict';

const PE_MACHINES = { 0x8664: 'x64', 0xaa64: 'arm64', 0x014c: 'ia32', 0x01c4: 'arm' };
const MACHO_CPUS = { 0x01000007: 'x64', 0x0100000c: 'arm64', 7: 'ia32', 12: 'arm' };
const ELF_MACHINES = { 62: 'x64', 183: 'arm64', 40: 'arm', 3: 'ia32' };

/**
 * What `buf` (a whole file, or at least its headers and, for ELF, its section table and dynamic
 * section) was built for: `{ format, cpu, ... }`, or `{ format: 'unknown' }` for anything else.
 * Never throws on bad input: a truncated header reads as unknown.
 */
function readBinaryHeader(buf) {
  try {
    if (buf.length >= 64 && buf[0] === 0x4d && buf[1] === 0x5a) return readPe(buf);
    if (buf.length >= 16 && buf.readUInt32BE(0) === 0x7f454c46) return readElf(buf);
    if (buf.length >= 16) {
      const le = buf.readUInt32LE(0);
      if (le === 0xfeedfacf || le === 0xfeedface) return readMachO(buf);
      if (buf.readUInt32BE(0) === 0xcafebabe) return readFatMachO(buf);
    }
  } catch {
    // A header that points past the end of the file.
  }
  return { format: 'unknown' };
}

function readPe(buf) {
  const peOffset = buf.readUInt32LE(0x3c);
  if (buf.readUInt32BE(peOffset) !== 0x50450000) return { format: 'unknown' };
  const machine = buf.readUInt16LE(peOffset + 4);
  const characteristics = buf.readUInt16LE(peOffset + 22);
  return { format: 'pe', cpu: PE_MACHINES[machine] ?? `machine 0x${machine.toString(16)}`, library: (characteristics & 0x2000) !== 0 };
}

function readMachO(buf) {
  const cputype = buf.readUInt32LE(4);
  const filetype = buf.readUInt32LE(12);
  // MH_DYLIB (6) or MH_BUNDLE (8): what Node loads.
  return { format: 'macho', cpu: MACHO_CPUS[cputype] ?? `cputype 0x${cputype.toString(16)}`, library: filetype === 6 || filetype === 8 };
}

/** A universal binary: the CPUs of its slices, joined ("arm64+x64"). */
function readFatMachO(buf) {
  const n = buf.readUInt32BE(4);
  // Java class files share the magic; they give a version where the count would be (≥ 45).
  if (n === 0 || n > 20) return { format: 'unknown' };
  const cpus = [];
  for (let i = 0; i < n; i++) {
    const cputype = buf.readUInt32BE(8 + i * 20);
    cpus.push(MACHO_CPUS[cputype] ?? `cputype 0x${cputype.toString(16)}`);
  }
  return { format: 'macho', cpu: cpus.sort().join('+'), library: true };
}

function readElf(buf) {
  const is64 = buf[4] === 2;
  const le = buf[5] === 1;
  const u16 = (o) => (le ? buf.readUInt16LE(o) : buf.readUInt16BE(o));
  const u32 = (o) => (le ? buf.readUInt32LE(o) : buf.readUInt32BE(o));
  const word = (o) => (is64 ? Number(le ? buf.readBigUInt64LE(o) : buf.readBigUInt64BE(o)) : u32(o));
  const type = u16(16);
  const machine = u16(18);
  const flags = u32(is64 ? 48 : 36);
  const out = {
    format: 'elf',
    cpu: ELF_MACHINES[machine] ?? `e_machine ${machine}`,
    bits: is64 ? 64 : 32,
    library: type === 3, // ET_DYN
    libc: 'unknown',
    needed: [],
  };
  // ARM: EF_ARM_ABI_FLOAT_HARD tells armhf from armel.
  if (machine === 40) out.hardFloat = (flags & 0x400) !== 0;
  // The shared libraries it needs (DT_NEEDED), from the SHT_DYNAMIC section and its string table.
  const shoff = word(is64 ? 40 : 32);
  const shentsize = u16(is64 ? 58 : 46);
  const shnum = u16(is64 ? 60 : 48);
  const section = (i) => {
    const base = shoff + i * shentsize;
    return {
      type: u32(base + 4),
      offset: word(base + (is64 ? 24 : 16)),
      size: word(base + (is64 ? 32 : 20)),
      link: u32(base + (is64 ? 40 : 24)),
    };
  };
  for (let i = 0; i < shnum; i++) {
    const dyn = section(i);
    if (dyn.type !== 6) continue; // SHT_DYNAMIC
    const strtab = section(dyn.link);
    const entry = is64 ? 16 : 8;
    for (let o = dyn.offset; o + entry <= dyn.offset + dyn.size; o += entry) {
      const tag = word(o);
      if (tag === 0) break; // DT_NULL
      if (tag !== 1) continue; // DT_NEEDED
      const start = strtab.offset + word(o + entry / 2);
      const end = buf.indexOf(0, start);
      out.needed.push(buf.toString('latin1', start, end));
    }
  }
  out.libc = libcOf(out.needed);
  return out;
}

/** glibc's libc is libc.so.6 (and ld-linux-*); musl's is libc.so or libc.musl-<arch>.so.1. */
function libcOf(needed) {
  if (needed.some((n) => n === 'libc.so' || n.startsWith('libc.musl-') || n.startsWith('ld-musl-'))) return 'musl';
  if (needed.some((n) => n === 'libc.so.6' || n.startsWith('ld-linux'))) return 'glibc';
  return 'unknown';
}

/**
 * What is wrong with a binary for a target's expectation (`{ format, cpu, libc? }`, from
 * scripts/lib/platformTargets.js): a list of sentences, empty when it fits. A binary of unknown
 * C library is accepted for a glibc target only if it needs no libc at all (statically linked).
 */
function binaryProblems(header, expected) {
  const problems = [];
  if (header.format !== expected.format) {
    problems.push(`is ${header.format === 'unknown' ? 'not a PE, Mach-O or ELF binary' : `a ${header.format} binary`}, not ${expected.format}`);
    return problems;
  }
  if (header.cpu !== expected.cpu) problems.push(`is for CPU ${header.cpu}, not ${expected.cpu}`);
  if (!header.library) problems.push('is not a shared library');
  if (header.format === 'elf') {
    if (expected.cpu === 'arm' && !header.hardFloat) problems.push('is soft-float ARM, not armhf');
    if (expected.libc && header.libc !== expected.libc && !(header.libc === 'unknown' && header.needed.length === 0)) {
      problems.push(`links ${header.libc} C library (${header.needed.join(', ') || 'none'}), not ${expected.libc}`);
    }
  }
  return problems;
}

module.exports = { readBinaryHeader, binaryProblems };
