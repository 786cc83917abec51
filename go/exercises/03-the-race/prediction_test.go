package therace

import (
	"testing"

	"workbook/core"
	"workbook/race"
)

// TestPrediction is exercise 03's first test, as exercises/03-the-race/prediction.test.ts is TypeScript's:
// how many tickets and receipts HandleSeparately leaves when two workers alternate, and what B gets.
func TestPrediction(t *testing.T) {
	core.Written(t, func() { Predict() })
	race.PredictionIsRight(t, Predict(), HandleSeparately)
}
