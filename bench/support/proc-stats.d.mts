// Types of proc-stats.mjs for the TypeScript benchmarks.
export function cpuSeconds(pid: number): number | null;
export function cpuMilliseconds(pid: number): number;
export function rssMb(pid: number): number | null;
export function rssSampler(pids: Record<string, number>, intervalMs?: number): { reset(): void; peaks(): Record<string, number>; stop(): void };
export function machineBusySeconds(): number | null;
