package witness

import "testing"

// TestMissingModule checks which go build failures make the replay
// build its driver again with a copy of go.mod that requires the
// runtime's packages (the user's module is left as it is).
func TestMissingModule(t *testing.T) {
	for _, tt := range []struct {
		out  string
		want bool
	}{
		{"main.go:5:2: no required module provides package github.com/go-sql-driver/mysql; to add it:", true},
		{"missing go.sum entry for module providing package github.com/jackc/pgx/v5/stdlib", true},
		// A pgx + sqlx module tidied without go-sql-driver/mysql in
		// go.mod (it is in go.sum through sqlx): an independent tester's
		// replay failed on it.
		{"go: updates to go.mod needed; to update it:\n\tgo mod tidy", true},
		{"./main.go:12:3: undefined: Allocate", false},
	} {
		if got := missingModule.MatchString(tt.out); got != tt.want {
			t.Errorf("missingModule.MatchString(%q) = %v, want %v", tt.out, got, tt.want)
		}
	}
}
