package pipeline

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// luWant is an expected lost-update finding: the write's and the read's
// positions (in testdata/concurrent) and what its message must say.
type luWant struct {
	entry, write, read string
	says               []string
}

// TestLostUpdateFinding: with --concurrent, a plain read-modify-write of
// a row (read without a lock, new value computed in Go, written back
// absolutely) is a lost-update finding at the write, naming the read,
// the values of two requests that lose an update and the isolation level
// that lets them; a FOR UPDATE read, a relative write, a version check
// with RowsAffected, PostgreSQL REPEATABLE READ, MySQL SERIALIZABLE and a
// write that does not depend on the read are not.
func TestLostUpdateFinding(t *testing.T) {
	tests := []struct {
		name, pkg, dialect, isolation, constraint string
		want                                      []luWant
	}{
		{"postgres", "./lostupdate", "postgres", "", "products.stock >= 0", []luWant{
			{"Reserve", "lostupdate/lostupdate.go:31", "lostupdate/lostupdate.go:25", []string{"not in one transaction", "both read stock"}},
			// Two requests in different warehouses do not wait for each
			// other (ReserveSerialized locks one warehouse: no finding).
			{"ReserveInWarehouse", "lostupdate/lostupdate.go:216", "lostupdate/lostupdate.go:210",
				[]string{"the row locks taken before the read, of warehouses at lostupdate/lostupdate.go:206, order two requests only when they lock the same rows"}},
			{"ReserveTx", "lostupdate/lostupdate.go:54", "lostupdate/lostupdate.go:48", []string{"at READ COMMITTED (postgres default for the transaction at lostupdate/lostupdate.go:42)", "both read stock"}},
		}},
		// --isolation rr: the transaction's second writer fails with
		// 40001; the statements that commit on their own still lose.
		{"postgres-rr", "./lostupdate", "postgres", "rr", "products.stock >= 0", []luWant{
			{"Reserve", "lostupdate/lostupdate.go:31", "lostupdate/lostupdate.go:25", []string{"not in one transaction"}},
		}},
		{"mysql", "./lostupdate/mysql", "mysql", "", "products.stock >= 0", []luWant{
			{"ReserveTx", "lostupdate/mysql/mysql.go:33", "lostupdate/mysql/mysql.go:27", []string{"at REPEATABLE READ (mysql (InnoDB) default", "both read stock"}},
		}},
		{"mysql-rc", "./lostupdate/mysql", "mysql", "rc", "products.stock >= 0", []luWant{
			{"ReserveSerializable", "lostupdate/mysql/mysql.go:56", "lostupdate/mysql/mysql.go:50", []string{"at READ COMMITTED (--isolation)"}},
			{"ReserveTx", "lostupdate/mysql/mysql.go:33", "lostupdate/mysql/mysql.go:27", []string{"at READ COMMITTED (--isolation)"}},
		}},
		// SQLite runs one transaction at a time.
		{"sqlite", "./lostupdate/mysql", "sqlite", "", "products.stock >= 0", nil},
		// The absolute write the stability proof shows SAFE still loses a
		// concurrent debit.
		{"absolute", "./absolute", "postgres", "", "accounts.balance >= 0", []luWant{
			{"Withdraw", "absolute/absolute.go:26", "absolute/absolute.go:20", []string{"both read balance"}},
		}},
		{"relative", "./relative", "postgres", "", "accounts.balance >= 0", nil},
		{"forupdate", "./forupdate", "postgres", "", "accounts.balance >= 0", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{tt.pkg}, Dialect: Dialect(tt.dialect), Isolation: tt.isolation,
				Constraints: []string{tt.constraint}, Workers: 1, Concurrent: true}
			wantFindings(t, cfg, report.FindingLostUpdate, tt.want,
				"with no lock of the row held from the read to the write", "as the second write overwrites the first", "one after the other they end at")
		})
	}
}

// wantFindings runs cfg and checks its findings of class against want
// (sorted by entry), each message saying also every one of always; and
// that the run without --concurrent has no finding.
func wantFindings(t *testing.T, cfg Config, class string, want []luWant, always ...string) {
	t.Helper()
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []report.Finding
	for _, f := range rep.Findings {
		if f.Class == class {
			got = append(got, f)
		}
	}
	sort.Slice(got, func(i, j int) bool { return got[i].Entry < got[j].Entry })
	if len(got) != len(want) {
		t.Fatalf("%d %s findings, want %d: %+v", len(got), class, len(want), got)
	}
	for i, w := range want {
		f := got[i]
		if !strings.HasSuffix(f.Entry, "."+w.entry) || f.Position != w.write || f.Related != w.read {
			t.Errorf("finding %s at %s (read %s), want %s at %s (read %s)", f.Entry, f.Position, f.Related, w.entry, w.write, w.read)
		}
		for _, s := range append(w.says, always...) {
			if !strings.Contains(f.Message, s) {
				t.Errorf("%s: message lacks %q: %s", w.entry, s, f.Message)
			}
		}
	}
	cfg.Concurrent = false
	if rep, err := runShared(context.Background(), cfg); err != nil || len(rep.Findings) != 0 {
		t.Errorf("without --concurrent: findings %v (error %v), want none", rep.Findings, err)
	}
}
