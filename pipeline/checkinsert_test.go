package pipeline

import (
	"path/filepath"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestCheckInsertFinding: with --concurrent, a read that finds no row of
// a key followed by an INSERT of that key, with no lock that blocks a
// concurrent insert of the key, is a check-then-insert finding at the
// INSERT, naming the read, the key values both requests insert and the
// isolation level: duplicate rows where the schema declares no key on
// the columns, an unhandled unique violation where it does; not where the
// violation is handled (ON CONFLICT, the error's code checked), a lock of
// the user's row orders the requests, SERIALIZABLE aborts one, MySQL's
// locking read takes a gap lock at REPEATABLE READ, the code inserts
// whatever the count (up to three), or on SQLite.
func TestCheckInsertFinding(t *testing.T) {
	dup := "as the schema declares no PRIMARY KEY or UNIQUE key within (user_id, coupon_id)"
	pgWant := []luWant{
		{"Claim", "checkinsert/checkinsert.go:200", "checkinsert/checkinsert.go:194",
			[]string{"both requests read no coupon_claims row for (user_id ", "The schema's key (user_id, coupon_id) refuses the second row", "does not handle"}},
		{"ClaimRepeatable", "checkinsert/checkinsert.go:268", "checkinsert/checkinsert.go:262",
			[]string{"at REPEATABLE READ (set in the code at checkinsert/checkinsert.go:256)", "The schema's key (user_id, coupon_id) refuses the second row"}},
		{"Redeem", "checkinsert/checkinsert.go:39", "checkinsert/checkinsert.go:33",
			[]string{"at READ COMMITTED (postgres default for the transaction at checkinsert/checkinsert.go:27)", dup}},
		{"RedeemForUpdate", "checkinsert/checkinsert.go:82", "checkinsert/checkinsert.go:75", []string{"a locking read of a missing row locks nothing", dup}},
		{"RedeemRepeatable", "checkinsert/checkinsert.go:131", "checkinsert/checkinsert.go:125",
			[]string{"at REPEATABLE READ (set in the code at checkinsert/checkinsert.go:119)", dup}},
		{"RedeemRow", "checkinsert/checkinsert.go:59", "checkinsert/checkinsert.go:52", []string{"not in one transaction", dup}},
	}
	tests := []struct {
		name, pkg, dialect, isolation, schema string
		constraints                           []string
		want                                  []luWant
	}{
		{"postgres", "./checkinsert", "postgres", "", "checkinsert/schema.sql", []string{"coupon_redemptions.amount > 0", "coupon_claims.amount > 0"}, pgWant},
		// Without the schema the key is not known: both outcomes are
		// named; a handled violation is taken to mean a key.
		{"postgres-no-schema", "./checkinsert", "postgres", "", "", []string{"coupon_claims.amount > 0"}, []luWant{
			{"Claim", "checkinsert/checkinsert.go:200", "checkinsert/checkinsert.go:194",
				[]string{"if no PRIMARY KEY or UNIQUE key lies within (user_id, coupon_id); with one (no schema of coupon_claims was given)"}},
			{"ClaimRepeatable", "checkinsert/checkinsert.go:268", "checkinsert/checkinsert.go:262", []string{"no schema of coupon_claims was given"}},
		}},
		{"mysql", "./checkinsert/mysql", "mysql", "", "checkinsert/mysql/schema.sql", []string{"coupon_redemptions.amount > 0"}, []luWant{
			{"Redeem", "checkinsert/mysql/mysql.go:36", "checkinsert/mysql/mysql.go:30",
				[]string{"at REPEATABLE READ (mysql (InnoDB) default for the transaction at checkinsert/mysql/mysql.go:24) InnoDB's plain SELECT reads a snapshot", dup}},
			{"RedeemForUpdateRC", "checkinsert/mysql/mysql.go:82", "checkinsert/mysql/mysql.go:76",
				[]string{"at READ COMMITTED (set in the code at checkinsert/mysql/mysql.go:70) InnoDB takes no gap lock", dup}},
		}},
		{"mysql-serializable", "./checkinsert/mysql", "mysql", "ser", "checkinsert/mysql/schema.sql", []string{"coupon_redemptions.amount > 0"}, nil},
		{"sqlite", "./checkinsert/mysql", "sqlite", "", "", []string{"coupon_redemptions.amount > 0"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := testdataDir(t, "concurrent")
			cfg := Config{Dir: dir, Patterns: []string{tt.pkg}, Dialect: Dialect(tt.dialect), Isolation: tt.isolation,
				Constraints: tt.constraints, Workers: 1, Concurrent: true}
			if tt.schema != "" {
				cfg.Schema = filepath.Join(dir, tt.schema)
			}
			wantFindings(t, cfg, report.FindingCheckInsert, tt.want, "found none, with no lock that blocks a concurrent insert of that key", "and both insert one")
		})
	}
}
