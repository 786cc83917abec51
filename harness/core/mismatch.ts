// The failure every player throws when code went another way than its schedule: the message is the whole
// story (the schedule, the step, what was expected, what the code did), so no stack trace is printed under it.
//
//   const problem = judgeHandler(schedule, name, played);
//   if (problem) throw new ScheduleMismatch(problem);
export class ScheduleMismatch extends Error {
	override name = 'ScheduleMismatch';
	constructor(message: string) {
		super(message);
		this.stack = `${this.name}: ${message}`;
	}
}
