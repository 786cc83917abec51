// @ts-nocheck
// Honest, graded right after db-gigabyte: the reference's routes (this line makes its files its own, so its
// run is not shared with another's).
// {{SOLUTION}}
