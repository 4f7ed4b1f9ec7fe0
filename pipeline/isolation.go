package pipeline

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
)

// Isolation levels of the concurrent model (Config.Isolation, --isolation).
const (
	ReadCommitted  = "READ COMMITTED"
	RepeatableRead = "REPEATABLE READ"
	Serializable   = "SERIALIZABLE"
)

// parseIsolation maps --isolation's value to a level ("" or "auto": none).
func parseIsolation(s string) (string, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return "", nil
	case "rc", "read-committed", "read committed":
		return ReadCommitted, nil
	case "rr", "si", "repeatable-read", "repeatable read", "snapshot":
		return RepeatableRead, nil
	case "ser", "serializable":
		return Serializable, nil
	}
	return "", fmt.Errorf("unknown isolation level %q (want auto, rc, rr or ser)", s)
}

// isolationPatterns find isolation levels set in Go code.
var isolationPatterns = []*regexp.Regexp{
	regexp.MustCompile(`sql\.Level(ReadUncommitted|ReadCommitted|WriteCommitted|RepeatableRead|Snapshot|Serializable|Linearizable)\b`),
	regexp.MustCompile(`pgx\.(ReadUncommitted|ReadCommitted|RepeatableRead|Serializable)\b`),
	regexp.MustCompile(`(?i)ISOLATION\s+LEVEL\s+(READ\s+UNCOMMITTED|READ\s+COMMITTED|REPEATABLE\s+READ|SERIALIZABLE)`),
}

// levelName normalises a level as the code spells it.
func levelName(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), ""))
	switch s {
	case "readuncommitted", "readcommitted", "writecommitted":
		return ReadCommitted
	case "repeatableread", "snapshot":
		return RepeatableRead
	}
	return Serializable
}

// isolationOf decides the isolation level of the requests progs: the
// --isolation override, else the level of each of their transactions, and
// of the weakest of those when they differ. A transaction's level is the
// one its BeginTx sets (sql.TxOptions or pgx.TxOptions on the BEGIN's line
// or the few lines after it), else one a SET TRANSACTION ISOLATION LEVEL
// statement of the same request sets, else the dialect's default. The
// weakest, not the strongest: a level set by another function's
// transaction (a read-only SERIALIZABLE report beside a withdraw at the
// default) must not make the withdraw look protected; a weaker level than
// the real one only allows more interleavings.
func isolationOf(override, dialect string, code *codeLevels, progs ...*ir.Program) report.Isolation {
	if override != "" {
		return report.Isolation{Level: override, Source: "--isolation"}
	}
	if dialect == "sqlite" {
		return sqliteIsolation(code, progs)
	}
	def := dialectDefault(dialect)
	var sites []report.Isolation // one per BEGIN, its level and where it comes from
	for _, p := range progs {
		for _, e := range p.Edges {
			op, ok := e.Stmt.(*ir.TxOp)
			if !ok || op.Op != ir.Begin {
				continue
			}
			info := e.Stmt.Source()
			set := setTransaction(p, dialect, op)
			switch level, source, ok := code.begun(op); {
			case ok:
				sites = append(sites, report.Isolation{Level: level, Source: source})
			case set.Level != "":
				sites = append(sites, set)
			case op.Options:
				// The header must not claim a level the code was not
				// seen to set (optionsNotShown makes a schedule found
				// under it UNKNOWN).
				sites = append(sites, report.Isolation{Level: def.Level, Source: def.Source + " assumed for the transaction at " + info.Position() + ", which is given isolation options that are not followed"})
			default:
				sites = append(sites, report.Isolation{Level: def.Level, Source: def.Source + " for the transaction at " + info.Position()})
			}
		}
	}
	if len(sites) == 0 {
		return def
	}
	weakest := sites[0]
	var sources []string
	for _, st := range sites {
		if rank(st.Level) < rank(weakest.Level) {
			weakest = st
		}
		if !slices.Contains(sources, st.Source) {
			sources = append(sources, st.Source)
		}
	}
	if len(sources) > 1 {
		weakest.Source += fmt.Sprintf(" (the weakest of the requests' transactions: %s)", strings.Join(sources, "; "))
	}
	return weakest
}

// sqliteLevel is the level of a SQLite transaction begun by op: every
// one is serializable (one writer at a time, its reads on one snapshot;
// a weaker level exists only in shared-cache mode). modernc.org/sqlite
// ignores the level sql.TxOptions asks for (its newTx runs "begin"), so
// a level the code sets is named as ignored; a driver that refused it
// would fail BeginTx, an error path. False on other dialects.
func sqliteLevel(dialect string, code *codeLevels, op *ir.TxOp) (report.Isolation, bool) {
	if dialect != "sqlite" {
		return report.Isolation{}, false
	}
	iso := dialectDefault(dialect)
	if at := ignoredLevel(code, op); at != "" {
		iso.Source += "; the driver ignores the levels the code asks for: " + at
	}
	return iso, true
}

// sqliteIsolation is sqliteLevel for the transactions of progs: one
// level, naming every weaker level the code asks for in vain.
func sqliteIsolation(code *codeLevels, progs []*ir.Program) report.Isolation {
	iso := dialectDefault("sqlite")
	var ignored []string
	for _, p := range progs {
		for _, e := range p.Edges {
			if op, ok := e.Stmt.(*ir.TxOp); ok && op.Op == ir.Begin {
				if at := ignoredLevel(code, op); at != "" && !slices.Contains(ignored, at) {
					ignored = append(ignored, at)
				}
			}
		}
	}
	if len(ignored) > 0 {
		iso.Source += "; the driver ignores the levels the code asks for: " + strings.Join(ignored, ", ")
	}
	return iso
}

// ignoredLevel is "LEVEL at file:line" for a level weaker than
// SERIALIZABLE that the code asks for at the BEGIN op, "" if none.
func ignoredLevel(code *codeLevels, op *ir.TxOp) string {
	if level, _, ok := code.begun(op); ok && level != Serializable {
		return fmt.Sprintf("%s at %s", level, op.Info.Position())
	}
	return ""
}

// dialectDefault is the dialect's default isolation level.
func dialectDefault(dialect string) report.Isolation {
	switch dialect {
	case "postgres":
		return report.Isolation{Level: ReadCommitted, Source: "postgres default"}
	case "sqlite":
		return report.Isolation{Level: Serializable, Source: "sqlite default"}
	}
	return report.Isolation{Level: RepeatableRead, Source: "mysql (InnoDB) default"}
}

// rank orders the levels from the weakest.
func rank(level string) int {
	switch level {
	case ReadCommitted:
		return 0
	case RepeatableRead:
		return 1
	}
	return 2
}

// levelNear returns the level set on line or the three lines after it
// (a TxOptions literal written over several lines).
func levelNear(levels map[string][]int, line int) (string, bool) {
	for _, level := range []string{ReadCommitted, RepeatableRead, Serializable} {
		for _, l := range levels[level] {
			if l >= line && l <= line+3 {
				return level, true
			}
		}
	}
	return "", false
}

// setTransaction returns the level a SET TRANSACTION ISOLATION LEVEL
// statement of p sets for the transaction begun by b, if any. Where it
// runs decides (adv7 W2: credited wherever it ran, two wrong SAFEs):
//   - PostgreSQL: on the transaction itself (inside it; run after another
//     statement it fails and the transaction is aborted, so it writes
//     nothing either way). On the pool it only warns: outside a
//     transaction block it sets nothing.
//   - MySQL: inside a transaction it is refused (1568) and changes
//     nothing; before START TRANSACTION on the same session it sets the
//     next transaction. database/sql's pool gives no session, so only a
//     SET sent on the connection (*sql.Conn) whose BEGIN is sent as SQL
//     text after it counts.
//
// A SET that does not count leaves the dialect's default, a weaker level
// than the one claimed: more interleavings, never fewer.
func setTransaction(p *ir.Program, dialect string, b *ir.TxOp) report.Isolation {
	re := isolationPatterns[len(isolationPatterns)-1]
	for _, st := range p.Settings {
		m := re.FindStringSubmatch(st.Text)
		if m == nil || st.Tx == 0 || st.Tx != b.Tx {
			continue
		}
		switch dialect {
		case "postgres":
		case "mysql":
			if !b.Conn || st.File != b.Info.File || st.Line >= b.Info.Line {
				continue
			}
		default:
			continue
		}
		return report.Isolation{Level: levelName(m[1]), Source: "SET TRANSACTION at " + st.Position()}
	}
	return report.Isolation{}
}

// scanIsolation returns the isolation levels a Go file sets through
// transaction options (sql.Level…, pgx.…), with their
// lines.
func scanIsolation(path string) map[string][]int {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	out := map[string][]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.Index(line, "//"); i >= 0 && !strings.Contains(line[:i], "\"") && !strings.Contains(line[:i], "`") {
			line = line[:i]
		}
		for _, re := range isolationPatterns[:len(isolationPatterns)-1] {
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				level := levelName(m[1])
				out[level] = append(out[level], n)
			}
		}
	}
	return out
}

// isolationGap says why the 2-request search, whose statements follow
// READ COMMITTED (each statement reads the newest committed state;
// writes and locking reads wait for row locks and then see the newest
// version), is not exact for level on the requests progs (constrained
// table table); "" where it is: at READ COMMITTED, for requests without
// transactions (each statement is a transaction of its own: the same
// under every level), and under MySQL's REPEATABLE READ for transactions
// with at most one plain read of the table, which is also their first
// plain read of any table (InnoDB takes the snapshot there: the newest
// committed state; locking reads and writes use the newest version and
// do not abort), and on SQLite for transactions of one statement each.
// isolationGaps is isolationGap for the first of tables that has one.
func isolationGaps(level, dialect string, tables []string, progs ...*ir.Program) string {
	for _, t := range tables {
		if gap := isolationGap(level, dialect, t, progs...); gap != "" {
			return gap
		}
	}
	return ""
}

func isolationGap(level, dialect, table string, progs ...*ir.Program) string {
	if level == ReadCommitted {
		return ""
	}
	usesTx := false
	for _, p := range progs {
		for _, e := range p.Edges {
			if s, ok := e.Stmt.(*ir.TxOp); ok && s.Op == ir.Begin {
				usesTx = true
			}
		}
	}
	if !usesTx {
		return ""
	}
	if dialect == "mysql" && (level == RepeatableRead || level == Serializable) {
		// (SERIALIZABLE: the plain reads in transactions of a request
		// whose every transaction is SERIALIZABLE are shared locking reads
		// (mysqlSerialReads); any left are checked as under REPEATABLE
		// READ, which allows more.)
		for _, p := range progs {
			if at := snapshotRead(p, table); at != "" {
				return "a plain read that may read the transaction's snapshot under REPEATABLE READ (the proof for any number of requests reads the newest committed state) at " + at
			}
			if at := lateRead(p, table, plainRead); at != "" {
				return "a plain read that may read the transaction's snapshot under REPEATABLE READ (an earlier plain read in the transaction took it; the proof for any number of requests reads the newest committed state) at " + at
			}
		}
		return ""
	}
	if dialect == "postgres" {
		for _, p := range progs {
			if at := lateRead(p, table, anyStatement); at != "" {
				return "a plain read that may read the transaction's snapshot under " + level + " (not modelled: it is not the transaction's first statement) at " + at
			}
		}
		return ""
	}
	if dialect == "sqlite" {
		// A SQLite transaction of one statement is that statement
		// committing on its own: it reads the newest committed state, and
		// its write waits for (or, without a busy timeout, fails on) the
		// database lock another transaction holds, as the search's row
		// lock does for the rows it writes. Longer ones take SQLite's
		// database-level locks and snapshots, which the search does not
		// model (the serial proof covers requests of one transaction).
		for _, p := range progs {
			if at := multiStatementTx(p); at != "" {
				return "serializable transactions of sqlite: its database lock and snapshot across the statements of a transaction are not modelled in the 2-request search (a transaction with more than one statement at " + at + ")"
			}
		}
		return ""
	}
	return strings.ToLower(level) + " transactions of " + dialect + ": snapshot reads and serialization failures are not modelled in the 2-request search"
}

// multiStatementTx returns the position of a statement of p on a
// transaction or connection handle that may run more than one statement
// ("" if every handle but the pool runs at most one, once): a second
// statement on the handle, or one that may run again (on a cycle).
func multiStatementTx(p *ir.Program) string {
	seen := map[ir.Tx]bool{}
	for _, e := range p.Edges {
		var h ir.Tx
		switch s := e.Stmt.(type) {
		case *ir.Select:
			h = s.Tx
		case *ir.Exec:
			h = s.Tx
		default:
			continue
		}
		if h == 0 {
			continue
		}
		if seen[h] || onCycle(p, e) {
			return e.Stmt.Source().Position()
		}
		seen[h] = true
	}
	return ""
}

// searchGaps is isolationGaps for the 2-request (or 3-request) search,
// which follows InnoDB's consistent reads (consistentReads): MySQL's
// REPEATABLE READ has no gap there.
func searchGaps(level, dialect string, tables []string, progs ...*ir.Program) string {
	if dialect == "mysql" && (level == RepeatableRead || level == Serializable) {
		return ""
	}
	return isolationGaps(level, dialect, tables, progs...)
}

// consistentReads reports whether the search of progs must follow
// InnoDB's consistent reads (dbmodel.Concurrency.ConsistentReads): under
// MySQL's REPEATABLE READ (and the plain reads SERIALIZABLE leaves), a
// plain read of a constrained table that may read a snapshot an earlier
// plain read took. Elsewhere every plain read of the tables reads the
// newest committed state, as the search without it does.
func consistentReads(level, dialect string, tables []string, progs ...*ir.Program) bool {
	if dialect != "mysql" || (level != RepeatableRead && level != Serializable) {
		return false
	}
	return isolationGaps(level, dialect, tables, progs...) != ""
}

// nextKeyLocks reports whether the engine takes next-key (gap) locks at
// level (InnoDB at REPEATABLE READ and SERIALIZABLE).
func nextKeyLocks(level, dialect string) bool {
	return dialect == "mysql" && (level == RepeatableRead || level == Serializable)
}

// firstUpdaterWins reports whether the search models serialization
// failures of concurrent updates (Postgres REPEATABLE READ and
// SERIALIZABLE).
func firstUpdaterWins(level, dialect string) bool {
	return dialect == "postgres" && (level == RepeatableRead || level == Serializable)
}

// lateRead returns the position of a plain SELECT of table in a
// transaction that may follow a statement that took the transaction's
// snapshot (takes: Postgres any statement, MySQL a plain read of any
// table) ("" if there is none): a may-analysis of "a snapshot-taking
// statement ran on handle T since its BEGIN".
func lateRead(p *ir.Program, table string, takes func(ir.Stmt) (ir.Tx, bool)) string {
	type state map[ir.Tx]bool
	in := make([]state, p.NumLocs)
	in[p.Entry] = state{}
	work := []ir.Loc{p.Entry}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range p.Out[l] {
			out := state{}
			for t, v := range in[l] {
				out[t] = v
			}
			if s, ok := e.Stmt.(*ir.TxOp); ok {
				out[s.Tx] = false
			} else if tx, ok := takes(e.Stmt); ok {
				out[tx] = true
			}
			changed := in[e.To] == nil
			if changed {
				in[e.To] = state{}
			}
			for t, v := range out {
				if v && !in[e.To][t] {
					in[e.To][t], changed = true, true
				}
			}
			if changed {
				work = append(work, e.To)
			}
		}
	}
	for _, e := range p.Edges {
		s, ok := e.Stmt.(*ir.Select)
		if ok && s.Tx != 0 && !s.SQL.ForUpdate && !s.SQL.ForShare && strings.EqualFold(s.SQL.Table, table) && in[e.From] != nil && in[e.From][s.Tx] {
			return s.Info.Position()
		}
	}
	return ""
}

// anyStatement says that every statement of a transaction takes its
// snapshot if it has none (Postgres: the first statement does).
func anyStatement(st ir.Stmt) (ir.Tx, bool) {
	switch s := st.(type) {
	case *ir.Exec:
		return s.Tx, true
	case *ir.Select:
		return s.Tx, true
	}
	return 0, false
}

// plainRead says that only a plain (non-locking) SELECT takes the
// snapshot (InnoDB: the first consistent read, of any table, creates the
// read view; writes and locking reads do not).
func plainRead(st ir.Stmt) (ir.Tx, bool) {
	if s, ok := st.(*ir.Select); ok && !s.SQL.ForUpdate && !s.SQL.ForShare {
		return s.Tx, true
	}
	return 0, false
}

// snapshotRead returns the position of a plain SELECT of table inside a
// transaction that may follow another plain SELECT of the table in the
// same transaction ("" if there is none). A FOR SHARE read is a locking
// read (MySQL SERIALIZABLE makes a transaction's plain reads so): it
// reads the newest version.
func snapshotRead(p *ir.Program, table string) string {
	count := map[ir.Tx]int{}
	for _, e := range p.Edges {
		s, ok := e.Stmt.(*ir.Select)
		if !ok || s.Tx == 0 || s.SQL.ForUpdate || s.SQL.ForShare || !strings.EqualFold(s.SQL.Table, table) {
			continue
		}
		count[s.Tx]++
		if count[s.Tx] > 1 || onCycle(p, e) {
			return s.Info.Position()
		}
	}
	return ""
}

// onCycle reports whether e's source location is reachable from e's
// target (e may run twice).
func onCycle(p *ir.Program, e *ir.Edge) bool {
	seen := make([]bool, p.NumLocs)
	stack := []ir.Loc{e.To}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if l == e.From {
			return true
		}
		if seen[l] {
			continue
		}
		seen[l] = true
		for _, o := range p.Out[l] {
			stack = append(stack, o.To)
		}
	}
	return false
}

// optionsNotShown returns the position of the first BEGIN of progs that is
// given transaction options (ir.TxOp.Options) whose isolation level the
// code does not write where the BEGIN is and the front end did not follow
// to one constant (options passed in by a caller, or kept in a variable,
// or a level chosen on a branch): isolationOf then assumed the dialect's default,
// a weaker level than the options may set, so a schedule found under it
// may not be possible. "" when there is none, or --isolation sets the
// level.
func optionsNotShown(override string, code *codeLevels, progs ...*ir.Program) string {
	if override != "" {
		return ""
	}
	for _, p := range progs {
		for _, e := range p.Edges {
			op, ok := e.Stmt.(*ir.TxOp)
			if !ok || op.Op != ir.Begin || !op.Options {
				continue
			}
			if _, _, ok := code.begun(op); !ok {
				return e.Stmt.Source().Position()
			}
		}
	}
	return ""
}

// codeLevels finds the isolation level the Go code sets at a BEGIN (see
// levelNear), reading each source file once per run: the workers share
// it.
type codeLevels struct {
	dir   string
	mu    sync.Mutex
	files map[string]map[string][]int // file → level → lines
}

func newCodeLevels(dir string) *codeLevels {
	return &codeLevels{dir: dir, files: map[string]map[string][]int{}}
}

// begun returns the level the BEGIN op sets and where it comes from: the
// constant the front end followed to its options (ir.TxOp.Level, perhaps
// passed in by a caller), else the level at finds at it. Both are "set in
// the code at" the BEGIN.
func (c *codeLevels) begun(op *ir.TxOp) (level, source string, ok bool) {
	source = "set in the code at " + op.Info.Position()
	if op.Level != "" {
		return levelName(op.Level), source, true
	}
	if level, ok := c.at(op.Info); ok {
		return level, source, true
	}
	return "", "", false
}

// at returns the level the BEGIN info sets: in its own SQL text (BEGIN
// ISOLATION LEVEL …), else by the options written on its line or the
// three after it (sql.LevelSerializable, pgx.Serializable). SQL text on
// those lines is not read: where a SET TRANSACTION counts depends on the
// handle it runs on (setTransaction).
func (c *codeLevels) at(info ir.Info) (string, bool) {
	if m := isolationPatterns[len(isolationPatterns)-1].FindStringSubmatch(info.Text); m != nil && info.Kind == ir.KindSQL {
		return levelName(m[1]), true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	levels, ok := c.files[info.File]
	if !ok {
		path := info.File
		if !filepath.IsAbs(path) && c.dir != "" {
			path = filepath.Join(c.dir, path)
		}
		levels = scanIsolation(path)
		c.files[info.File] = levels
	}
	return levelNear(levels, info.Line)
}
