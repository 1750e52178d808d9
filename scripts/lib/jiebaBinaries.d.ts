// Types of jiebaBinaries.js (for the TypeScript tests).
export function lockedPackage(root: string, name: string): { version: string; integrity?: string };
export function fetchLocked(root: string, name: string, cacheDir: string): { file: string; version: string };
export function readTarball(file: string): Map<string, Buffer>;
export function tarballName(name: string, version: string): string;
