// Types of binaryHeader.js (for the TypeScript tests).
export interface BinaryHeader {
  format: 'pe' | 'macho' | 'elf' | 'unknown';
  cpu?: string;
  library?: boolean;
  bits?: number;
  libc?: 'glibc' | 'musl' | 'unknown';
  needed?: string[];
  hardFloat?: boolean;
}
export interface BinaryExpectation {
  format: 'pe' | 'macho' | 'elf';
  cpu: string;
  libc?: 'glibc' | 'musl';
}
export function readBinaryHeader(buf: Buffer): BinaryHeader;
export function binaryProblems(header: BinaryHeader, expected: BinaryExpectation): string[];
