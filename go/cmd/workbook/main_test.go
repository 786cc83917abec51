package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestShippedCopiesAreTheStubs: reset puts back learner/shipped/go/'s copy, so it must be the stub as
// shipped. A stub changed on purpose is copied there in the same commit.
func TestShippedCopiesAreTheStubs(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	all, err := goExercises(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		t.Fatal("the manifest lists no Go exercise")
	}
	for _, ex := range all {
		for _, file := range ex.GoLearnerFiles {
			stub, err := os.ReadFile(filepath.Join(root, "go", "exercises", ex.Folder, file))
			if err != nil {
				t.Fatal(err)
			}
			shipped, err := os.ReadFile(filepath.Join(root, "learner", "shipped", "go", ex.Folder, file+".txt"))
			if err != nil || string(shipped) != string(stub) {
				t.Errorf("learner/shipped/go/%s/%s.txt is not go/exercises/%s/%s as shipped (cp the stub there): %v",
					ex.Folder, file, ex.Folder, file, err)
			}
		}
	}
}
