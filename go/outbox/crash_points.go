package outbox

import "workbook/scheduler"

// crashPlans mirrors harness/outbox/crash-points.ts: the handler dies at each of its points, then the
// sender retries (with a relay run in between, or not); the relay dies at each of its points, once or
// twice, after two deliveries. Every plan ends with the clean relay run checkRounds adds.
func crashPlans() [][]round {
	handlerPoints := []scheduler.CrashPoint{{When: "before-write"}, {When: "before-commit"}, {When: "before-answering"}}
	relayPoints := []scheduler.CrashPoint{{When: "after", Operation: "pending-outbox"}, {When: "before-commit"}, {When: "before-answering"}}
	for nth := 1; nth <= 2; nth++ {
		relayPoints = append(relayPoints, scheduler.CrashPoint{When: "after", Operation: "send-email", Nth: nth}, scheduler.CrashPoint{When: "after", Operation: "mark-sent", Nth: nth})
	}
	for count := 0; count <= 10; count++ {
		handlerPoints = append(handlerPoints, scheduler.CrashPoint{When: "after-operations", Count: count})
	}
	for count := 0; count <= 14; count++ {
		relayPoints = append(relayPoints, scheduler.CrashPoint{When: "after-operations", Count: count})
	}
	one := func(workers ...workerSpec) round { return round{workers: workers} }
	var plans [][]round
	for _, p := range handlerPoints {
		crash := p
		plans = append(plans,
			[]round{one(workerSpec{true, 0, &crash}), one(workerSpec{true, 0, nil})},
			[]round{one(workerSpec{true, 0, &crash}), one(workerSpec{false, 0, nil}), one(workerSpec{true, 0, nil})})
	}
	for _, p := range relayPoints {
		crash := p
		two := one(workerSpec{true, 0, nil}, workerSpec{true, 1, nil})
		plans = append(plans,
			[]round{two, one(workerSpec{false, 0, &crash})},
			[]round{two, one(workerSpec{false, 0, &crash}), one(workerSpec{false, 0, &crash})})
	}
	return plans
}
