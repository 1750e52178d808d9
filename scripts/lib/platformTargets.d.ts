// Types of platformTargets.js (for the TypeScript tests).
import type { BinaryExpectation } from './binaryHeader';
export interface TargetRow {
  target: string;
  jieba: string | null;
  binary: BinaryExpectation | null;
}
export const TARGETS: TargetRow[];
export const JIEBA_FILES: string[];
export function hostTarget(platform?: string, arch?: string, musl?: boolean): string;
export function targetRow(target: string): TargetRow;
