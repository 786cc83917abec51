// The types of built-config.js, plain JavaScript that node runs as it is (npm-test.js and npm-progress.js load it).
export function runVitest(root: string, mode: string, args: string[]): Promise<void>;
export function builtConfig(root: string): Promise<string | null>;
