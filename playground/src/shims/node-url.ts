// Stands in for node:url in the page. The server's root is the workbook's folder, so a module's address
// (http://127.0.0.1:5173/harness/core/schedules.ts) has the path the fs stand-in answers to.
export function fileURLToPath(url: string | URL): string {
	return new URL(url).pathname;
}
