// The kinds of schedule, each found where its loader reads every file of the kind:
//
//   export function handlerSchedules() {
//   	return loadSchedules<HandlerSchedule>('handler', check);
//   }
//
// gives { kind: 'handler', type: 'HandlerSchedule', file: …/harness/handler/schedules.ts, loader:
// 'handlerSchedules' }. `npm run schedules` loads every kind through its loader, and the schedule types' test
// holds each type to its schema, so a new kind needs a line in neither.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { workbookRoot } from '#harness/core/manifest.ts';

export type ScheduleKind = { kind: string; type: string; file: string; loader: string };

const loaderCall = /export function (\w+)\(\) \{\s*return loadSchedules<(\w+)>\('([\w-]+)'/g;

export function scheduleKinds(): ScheduleKind[] {
	const harness = join(workbookRoot, 'harness');
	return readdirSync(harness, { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
		.flatMap((file) =>
			[...readFileSync(join(harness, file), 'utf8').matchAll(loaderCall)].map(([, loader, type, kind]) => ({
				kind: kind!,
				type: type!,
				file: join(harness, file),
				loader: loader!
			}))
		)
		.sort((a, b) => a.kind.localeCompare(b.kind));
}

// A kind's loader, imported from its file.
export async function loaderOf({ file, loader }: ScheduleKind): Promise<() => { name: string }[]> {
	const module = (await import(pathToFileURL(file).href)) as Record<string, () => { name: string }[]>;
	return module[loader]!;
}
