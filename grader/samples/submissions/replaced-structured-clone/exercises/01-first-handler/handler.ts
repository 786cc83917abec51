// @ts-nocheck
// Hostile: snapshot() hands out the live store (the workbook's tests fail it), and structuredClone, which the
// observer calls to keep the store before a caller scribbles on it, is replaced by one that copies nothing,
// so "before" changes with "after" and the scribbles look like a copy's.
// {{SOLUTION}}
TicketHandler.prototype.snapshot = function () {
	return this.db;
};
globalThis.structuredClone = (value) => value;
