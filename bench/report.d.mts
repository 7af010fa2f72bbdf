// Types of report.mjs for the TypeScript benchmarks.
export declare function verdict(value: number, unit: string, target: string): 'met' | 'not met' | null;
export declare function record(name: string, value: number, unit: string, target?: string): void;
export declare const SMOKE: boolean;
