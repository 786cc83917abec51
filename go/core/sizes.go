package core

import (
	"os"
	"strconv"
)

// Seeds are the seeds a seeded property plays, one case each: 0 up to loop in the learner's go test, or as
// many as the variable named cases says (npm run verify sets more: tools/verify.ts, goSizes), or only the
// one the variable named seed names, which replays the case a failure told.
//
//	for _, seed := range core.Seeds("RACE_CASES", "RACE_SEED", 100) { … }
func Seeds(cases, seed string, loop int) []uint64 {
	if n, err := strconv.ParseUint(os.Getenv(seed), 10, 64); err == nil {
		return []uint64{n}
	}
	if n, err := strconv.Atoi(os.Getenv(cases)); err == nil && n > 0 {
		loop = n
	}
	seeds := make([]uint64, loop)
	for i := range seeds {
		seeds[i] = uint64(i)
	}
	return seeds
}
