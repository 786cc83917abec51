// Every schedule on disk, as "kind/name": the list the parity check, the grader's Go reference and the
// differential check all read, so they agree on what a schedule is.
//
//   scheduleFiles(schedulesDir)   // ['client/one-send', …, 'status/two-tickets-two-versions']
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function scheduleFiles(schedulesDir: string): string[] {
	return readdirSync(schedulesDir)
		.filter((kind) => kind !== 'schema' && statSync(join(schedulesDir, kind)).isDirectory())
		.sort()
		.flatMap((kind) =>
			readdirSync(join(schedulesDir, kind))
				.filter((file) => file.endsWith('.json'))
				.sort()
				.map((file) => `${kind}/${file.replace(/\.json$/, '')}`)
		);
}
