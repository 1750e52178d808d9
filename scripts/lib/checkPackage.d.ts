// Types of checkPackage.js (for the TypeScript tests).
import type { BinaryHeader } from './binaryHeader';
import type { TargetRow } from './platformTargets';
export const MAX_PACKAGE_BYTES: number;
export function readVsix(file: string): Promise<Map<string, { size: number; data?: Buffer }>>;
export function checkPackage(
  file: string,
  row: TargetRow,
  options: { nativeKernel: boolean },
): Promise<{ problems: string[]; nodeFiles: { path: string; header: BinaryHeader }[]; bytes: number; entries: string[] }>;
export function extractVsix(file: string, dir: string): Promise<void>;
