package witness

import "testing"

// TestWithInterpolation: the replay's MySQL DSN gets the program's
// interpolation setting, whatever a --dsn says.
func TestWithInterpolation(t *testing.T) {
	tests := []struct {
		dsn  string
		on   bool
		want string
	}{
		{"root@unix(/s)/db", true, "root@unix(/s)/db?interpolateParams=true"},
		{"root@unix(/s)/db", false, "root@unix(/s)/db"},
		{"root@unix(/s)/db?multiStatements=true", true, "root@unix(/s)/db?multiStatements=true&interpolateParams=true"},
		{"u@tcp(h)/db?interpolateParams=true&parseTime=true", false, "u@tcp(h)/db?parseTime=true"},
		{"u@tcp(h)/db?InterpolateParams=false", true, "u@tcp(h)/db?interpolateParams=true"},
	}
	for _, tt := range tests {
		if got := withInterpolation(tt.dsn, tt.on); got != tt.want {
			t.Errorf("withInterpolation(%q, %v) = %q, want %q", tt.dsn, tt.on, got, tt.want)
		}
	}
}
