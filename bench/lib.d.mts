// Types of lib.mjs for the TypeScript benchmarks.
import type { ChildProcess } from 'node:child_process';

export declare const SMOKE: boolean;
export declare const ROOT: string;
export declare const SHOP_NODE_FLAGS: string[];
export declare const SHOP_ENV: Record<string, string>;
export declare const WEB_NODE_FLAGS: string[];
export declare function shopNodeArgs(): string[];
export declare function tempDataDir(name: string): string;
export declare function startShop(options: { port: number; dataDir: string; env?: Record<string, string> }): Promise<{
  url: string;
  seconds: number;
  child: ChildProcess;
  stop(): Promise<void>;
}>;
export declare function printFigure(name: string, value: number | string, unit: string, target?: string): void;
export declare function residentMb(pid: number): number;
export declare function idleResidentMb(pid: number, seconds?: number): Promise<number>;
