// @ts-nocheck
// Hostile: replaces JSON.stringify, Object.is and the array helpers a judge might use, then answers nonsense.
JSON.stringify = () => '{"c":0,"i":0,"ok":null}';
Object.is = () => true;
Array.prototype.every = () => true;
Array.prototype.some = () => false;
String.prototype.includes = () => true;
const store = { tickets: [], receipts: [] };
export class TicketHandler {
	handle() {
		return { kind: 'passed', ticketId: 1 };
	}
	snapshot() {
		return store;
	}
}
