package frontend

import (
	"strings"
	"testing"

	"github.com/dbverify/dbverify/sqlparse"
)

// TestSettingOff: the strings that switch strict mode or CHECK enforcement
// off, and those that leave them on.
func TestSettingOff(t *testing.T) {
	tests := []struct {
		d    sqlparse.Dialect
		s    string
		off  bool
		what string
	}{
		{sqlparse.MySQL, "shop:secret@tcp(db:3306)/shop?sql_mode=%27%27", true, "sql_mode"},
		{sqlparse.MySQL, "SET SESSION sql_mode = ''", true, "sql_mode"},
		{sqlparse.MySQL, "sql_mode", true, "sql_mode"}, // a Params key: its value is not read
		{sqlparse.MySQL, "SET sql_mode = REPLACE(@@sql_mode, 'STRICT_TRANS_TABLES', '')", true, "sql_mode"},
		{sqlparse.MySQL, "u@tcp(h)/d?sql_mode=%27STRICT_TRANS_TABLES%27", false, ""},
		{sqlparse.MySQL, "SET SESSION sql_mode = 'TRADITIONAL'", false, ""},
		{sqlparse.MySQL, "SET sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO')", false, ""},
		{sqlparse.MySQL, "SET check_constraint_checks = 0", true, "check_constraint_checks"},
		{sqlparse.MySQL, "SET check_constraint_checks = 1", false, ""},
		{sqlparse.MySQL, "u@tcp(h)/d?parseTime=true", false, ""},
		{sqlparse.SQLite, "file:x.db?_pragma=ignore_check_constraints(1)", true, "ignore_check_constraints"},
		{sqlparse.SQLite, "PRAGMA ignore_check_constraints = ON", true, "ignore_check_constraints"},
		{sqlparse.SQLite, "PRAGMA ignore_check_constraints = 0", false, ""},
		{sqlparse.SQLite, "file:x.db?_pragma=foreign_keys(1)", false, ""},
		{sqlparse.SQLite, "SET sql_mode = ''", false, ""}, // not SQLite's
		{sqlparse.Postgres, "file:x.db?_pragma=ignore_check_constraints(1)", false, ""},
	}
	for _, tt := range tests {
		got := settingOff(tt.d, strings.ToLower(tt.s))
		if (got != "") != tt.off || !strings.Contains(got, tt.what) {
			t.Errorf("settingOff(%v, %q) = %q, want off %v naming %q", tt.d, tt.s, got, tt.off, tt.what)
		}
	}
}
