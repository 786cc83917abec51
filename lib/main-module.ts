// Whether a module is the script node was started with (`tsx learner/hint.ts`), wherever the workbook lies.
// import.meta.url is a URL, where a space reads %20 and é reads %C3%A9; process.argv[1] is a path, and either
// may go through a link: so both become real paths before they are compared.
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const real = (path: string) => {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
};

// isMain(import.meta.url): true in the script that was run, false in every module it imports.
export function isMain(moduleUrl: string, script = process.argv[1]): boolean {
	if (!script || !moduleUrl.startsWith('file:')) return false;
	return real(fileURLToPath(moduleUrl)) === real(resolve(script));
}
