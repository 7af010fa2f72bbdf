// Types of processes.mjs for the TypeScript benchmarks.
import type { ChildProcess } from 'node:child_process';

export function stopChild(child: ChildProcess | null | undefined, options?: { signal?: NodeJS.Signals; graceMs?: number }): Promise<void>;
export function stopOnExit(cleanup?: () => Promise<unknown>): void;
export function once<T>(fn: () => T | Promise<T>): () => Promise<T>;
