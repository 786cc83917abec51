// @ts-nocheck
// Hostile: puts its own environment into its error message, where results.json shows it (reaching nothing
// outside: the sandbox's environment is all it has).
export class TicketHandler {
	handle() {
		throw new Error(`LEAK ${JSON.stringify(process.env)}`);
	}
	snapshot() {
		return { tickets: [], receipts: [] };
	}
}
