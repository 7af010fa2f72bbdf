// Types of bench-database.mjs for the TypeScript benchmarks.
export function benchDatabase(name: string): Promise<{ name: string; url: string; drop(): Promise<void> }>;
