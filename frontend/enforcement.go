package frontend

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/dbverify/dbverify/sqlparse"
)

// Engine settings that switch enforcement off (adv16 assume_mysql_strict).
//
// The row model takes from the engine that a write of an out-of-range
// integer or of NULL into a NOT NULL column fails (MySQL/MariaDB in strict
// mode, their default sql_mode, STRICT_TRANS_TABLES) and that a write
// breaking a CHECK fails (and so that every row satisfies the CHECKs). A
// program can turn that off itself: MySQL sql_mode='' in its DSN or a SET
// [SESSION] sql_mode (the value is then clipped, NULL becomes 0), MariaDB
// check_constraint_checks=0, SQLite _pragma=ignore_check_constraints(1) in
// its DSN or the PRAGMA run as SQL. A SAFE must not rest on what such a
// setting disables: a string of the module's code that names one, with a
// value the analysis cannot read as leaving enforcement on, makes every
// entry that runs SQL of that dialect UNKNOWN, naming the setting and
// where. As the DSN may not be a literal, and the server's configuration
// is not seen at all, every MySQL and SQLite result says it assumes the
// engine's defaults.

// mysqlDefaults and sqliteDefaults are said beside every result of MySQL
// and SQLite SQL (defaultsAssumption): what the row model takes from that
// engine's defaults. (SQLite has no sql_mode: its NOT NULL is always
// enforced, its CHECKs unless PRAGMA ignore_check_constraints is on, and
// a value keeps its column's type affinity; the model takes no write to
// fail for its type.)
const (
	mysqlDefaults  = "MySQL strict mode (STRICT_TRANS_TABLES) and CHECK enforcement as the engine's defaults: not switched off by the server's configuration or a DSN the analysis cannot read"
	sqliteDefaults = "SQLite's CHECK and NOT NULL enforcement as the engine's defaults (PRAGMA ignore_check_constraints off: not switched on by a DSN or a connection the analysis cannot read), and values stored by the columns' type affinity (no write is taken to fail for a value's type: a STRICT table's type checks are not relied on)"
)

// defaultsAssumption is the assumption of dialect d's defaults ("" for a
// dialect without one).
func defaultsAssumption(d sqlparse.Dialect) string {
	switch d {
	case sqlparse.MySQL:
		return mysqlDefaults
	case sqlparse.SQLite:
		return sqliteDefaults
	}
	return ""
}

// engineSetting is a setting of the module's code that may switch off
// what the model takes the engine to enforce.
type engineSetting struct {
	what string // what it switches off, with the text that names it
	pos  string // file:line
}

// keepsStrict matches sql_mode values that keep strict mode: a mode that
// names STRICT_TRANS_TABLES, STRICT_ALL_TABLES or TRADITIONAL, or adds to
// the current one (CONCAT(@@sql_mode, …)).
var keepsStrict = regexp.MustCompile(`strict_trans_tables|strict_all_tables|traditional|concat\s*\(\s*@@(session\.)?sql_mode`)

// keepsChecks matches settings that leave CHECKs enforced.
var keepsChecks = regexp.MustCompile(`ignore_check_constraints\s*(\(\s*(0|off|false|no)\s*\)|=\s*(0|off|false|no)\b)|check_constraint_checks\s*(\(\s*(1|on|true)\s*\)|=\s*'?(1|on|true)\b)`)

const (
	strictOff = "sql_mode without STRICT_TRANS_TABLES/STRICT_ALL_TABLES: MySQL then stores an out-of-range integer clipped and a NULL for a NOT NULL column as 0, where the row model has the write fail"
	checksOff = "the engine then accepts writes that break a CHECK, where the row model has them fail and every row satisfy the CHECKs"
)

// settingOff returns what string s (lower case) of the module switches
// off in dialect d, or "".
func settingOff(d sqlparse.Dialect, s string) string {
	switch d {
	case sqlparse.MySQL:
		switch {
		case strings.Contains(s, "sql_mode") && (!keepsStrict.MatchString(s) || strings.Contains(s, "replace(")):
			return strictOff
		case strings.Contains(s, "check_constraint_checks") && !keepsChecks.MatchString(s):
			return "check_constraint_checks: " + checksOff
		}
	case sqlparse.SQLite:
		if strings.Contains(s, "ignore_check_constraints") && !keepsChecks.MatchString(s) {
			return "ignore_check_constraints: " + checksOff
		}
	}
	return ""
}

// enforcementOff returns the first string of the module's code that may
// switch off enforcement in dialect d (see above); nil if none.
func (l *Loaded) enforcementOff(d sqlparse.Dialect) *engineSetting {
	if got, done := l.enforcementCache[d]; done {
		return got
	}
	var found *engineSetting
	for instr, text := range l.moduleStrings() {
		what := settingOff(d, strings.ToLower(text))
		if what == "" {
			continue
		}
		file, line := l.position(instr.Pos())
		if line == 0 {
			file, line = l.position(instr.Parent().Pos())
		}
		found = &engineSetting{what: fmt.Sprintf("%q may set %s", compactSQL(text), what), pos: fmt.Sprintf("%s:%d", file, line)}
		break
	}
	if l.enforcementCache == nil {
		l.enforcementCache = map[sqlparse.Dialect]*engineSetting{}
	}
	l.enforcementCache[d] = found
	return found
}

// noteEnforcement, at a statement of the entry, says which enforcement the
// model takes from a MySQL or SQLite engine and makes the entry UNKNOWN
// where the module's code may switch it off.
func (t *translator) noteEnforcement() {
	a := defaultsAssumption(t.dialect)
	if a == "" {
		return
	}
	t.p.Assume(a)
	if t.enforcementNoted {
		return
	}
	t.enforcementNoted = true
	if s := t.l.enforcementOff(t.dialect); s != nil {
		t.unsupported("engine setting at %s: %s; this entry runs such SQL", s.pos, s.what)
	}
}
