package sqlparse

import "testing"

func FuzzParseConstraint(f *testing.F) {
	for _, s := range []string{"accounts.balance >= 0", "a BETWEEN 1 AND 2 OR b IN (1, 2)", "x >=", "CASE WHEN a THEN 1 END = 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, err := ParseConstraint(text, "t")
		if err != nil {
			return
		}
		// Formatting must not fail and must reparse.
		s := Format(c.Expr)
		if _, err := ParseConstraint(s, "t"); err != nil {
			t.Fatalf("%q formats as %q which does not parse: %v", text, s, err)
		}
	})
}
