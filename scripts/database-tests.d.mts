/** Test files (relative to root, "/" separators) that can reach a database, sorted. */
export function databaseTestFiles(root: string): string[];
