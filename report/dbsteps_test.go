package report

import "testing"

// TestBindSQL: a statement prints as the database runs it, each
// placeholder style of the supported drivers replaced by its value,
// strings quoted as SQL quotes them, quoted text and casts left alone.
func TestBindSQL(t *testing.T) {
	tests := []struct {
		text string
		args []string
		want string
	}{
		{"UPDATE a SET b = b - ? WHERE id = ?", []string{"5", "7"}, "UPDATE a SET b = b - 5 WHERE id = 7"},
		{"UPDATE a SET b = b - $2 WHERE id = $1", []string{"7", "5"}, "UPDATE a SET b = b - 5 WHERE id = 7"},
		{"UPDATE a SET b = b - ?2 WHERE id = ?1", []string{"7", "5"}, "UPDATE a SET b = b - 5 WHERE id = 7"},
		{"UPDATE a SET b = b - :amount WHERE id = :id AND c < :amount", []string{"5", "7"}, "UPDATE a SET b = b - 5 WHERE id = 7 AND c < 5"},
		{"UPDATE a SET b = b - @amount WHERE owner = @owner", []string{"5", `"o'k"`}, "UPDATE a SET b = b - 5 WHERE owner = 'o''k'"},
		{"UPDATE a SET b = b - ? WHERE s = '?' AND id = ?", []string{"-1", "7"}, "UPDATE a SET b = b - (-1) WHERE s = '?' AND id = 7"},
		{"SELECT b::int FROM a WHERE id = $1", []string{"7"}, "SELECT b::int FROM a WHERE id = 7"},
		{"UPDATE a SET b = ? WHERE id = ?", []string{"", "7"}, "UPDATE a SET b = ? WHERE id = 7"},
		{"UPDATE a SET b = 1", nil, ""},
	}
	for _, tt := range tests {
		if got := BindSQL(tt.text, tt.args); got != tt.want {
			t.Errorf("BindSQL(%q, %q) = %q, want %q", tt.text, tt.args, got, tt.want)
		}
	}
}

// TestResultAt: an inlined call's result is named as the call site
// writes it.
func TestResultAt(t *testing.T) {
	tests := []struct {
		line, fn string
		n        int
		want     string
	}{
		{"left, err := b.q.GetAvailable(ctx, customer)", "GetAvailable", 0, "left"},
		{"left, err := b.q.GetAvailable(ctx, customer)", "GetAvailable", 1, "err"},
		{"if !validate(bal, amount) {", "validate", 0, "validate(bal, amount)"},
		{"if err := qtx.Consume(ctx, store.Params{ID: id, Amount: amount, Note: note}); err != nil {", "Consume", 0, "err"},
		{"} else if ok := check(x); !ok {", "check", 0, "ok"},
		{"return debit(db, p)", "debit", 0, "debit(db, p)"},
		{"_, err = s.charge(ctx, id, price)", "charge", 0, "s.charge(ctx, id, price) (result 1)"},
		{"total += s.fee(ctx, amountInCents, currencyCodeOfTheAccount)", "fee", 0, "s.fee(…)"},
	}
	for _, tt := range tests {
		if got, ok := resultAt(tt.line, tt.fn, tt.n); !ok || got != tt.want {
			t.Errorf("resultAt(%q, %s, %d) = %q, %v; want %q", tt.line, tt.fn, tt.n, got, ok, tt.want)
		}
	}
}
