// The explorations at the sizes verify plays (the learner's loop plays fewer): 06's solution keeps every
// promise over more random sequences and model runs, and the stub is told as a stub, not as a broken promise.
import { describe, expect, it } from 'vitest';
import * as solution from '../../solutions/06-ticket-endpoint/endpoint.ts';
import * as stub from '../../exercises/06-ticket-endpoint/endpoint.ts';
import { NotWrittenYet } from '../core/todo.ts';
import { defaultSeed } from './explorations.ts';
import { checkEndpointModel, crashProblem, overlapProblem } from './explorers.ts';

const sizes = { crashSequences: 40, modelRuns: 150, seed: defaultSeed + 1 };
const limit = { timeout: 120_000 };

describe("06's explorations, at verify's sizes", () => {
	it('the solution keeps every promise at every crash point', limit, async () => {
		expect(await crashProblem(solution, sizes)).toBeNull();
	});
	it('the solution keeps them at every overlap', limit, async () => {
		expect(await overlapProblem(solution)).toBeNull();
	});
	it('the solution does what the model does', limit, async () => {
		expect(await checkEndpointModel(solution, { runs: sizes.modelRuns, seed: sizes.seed })).toBeNull();
	});
	it('a stub stops each with its own NotWrittenYet', async () => {
		await expect(crashProblem(stub, sizes)).rejects.toBeInstanceOf(NotWrittenYet);
		await expect(overlapProblem(stub)).rejects.toBeInstanceOf(NotWrittenYet);
		await expect(checkEndpointModel(stub, { runs: 2, seed: 1 })).rejects.toBeInstanceOf(NotWrittenYet);
	});
});
