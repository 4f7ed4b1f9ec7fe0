package postgres

import (
	"errors"
	"strconv"

	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// The SQLite dialect. The statement forms Go programs send to SQLite
// (INSERT … ON CONFLICT … DO UPDATE/NOTHING, RETURNING, UPDATE … FROM,
// "quoted" identifiers) are spelt as in Postgres, so a SQLite query is
// rewritten into Postgres text of the same meaning — placeholders become
// $n, `name` and [name] become "name", "==" becomes "=", and the conflict
// clauses INSERT OR REPLACE / OR IGNORE / REPLACE INTO are blanked out and
// remembered — and parsed with the Postgres parser; the translator then
// applies SQLite's own meaning to iif, ifnull and the scalar (two or more
// argument) max and min. Offsets in errors are offsets into the original
// query.

// sqliteText is a SQLite query rewritten for the Postgres parser.
type sqliteText struct {
	text string
	// orig[i] is the offset in the original query of byte i of text
	// (len(text)+1 entries).
	orig []int
	// count is the number of parameters; names[i] is the name of
	// parameter i when the query uses named parameters (:x, @x, $x).
	count int
	names []string
	// insertOr and updateOr are the conflict clauses of INSERT OR … and
	// UPDATE OR … (lower case, "" if none); "replace" for REPLACE INTO.
	insertOr, updateOr string
}

// ParseSQLite parses one SQLite statement (see sqlparse.Parse).
func ParseSQLite(query string) (*rules.Result, error) {
	if i := strings.IndexByte(query, 0); i >= 0 {
		return nil, &rules.ParseError{Query: query, Offset: i, Msg: "NUL byte in query"}
	}
	words, onlyWords := rules.LeadingWords(query)
	if onlyWords && len(words) > 0 {
		if st, err, ok := sqliteTxStatement(query, words); ok {
			if err != nil {
				return nil, err
			}
			return &rules.Result{Stmt: st}, nil
		}
	}
	st, err := rewriteSQLite(query)
	if err != nil {
		return nil, err
	}
	res, err := parsePg(st.text, true)
	if err != nil {
		var pe *rules.ParseError
		if len(words) > 0 && rules.IsOtherFirstWord(words[0]) && errors.As(err, &pe) {
			// PRAGMA, VACUUM, ATTACH, …: they change no rows.
			return &rules.Result{Stmt: &sqlir.Other{Text: strings.TrimSpace(query)}}, nil
		}
		return nil, st.originalError(query, err)
	}
	res.NumParams = max(res.NumParams, st.count)
	if len(st.names) > 0 {
		res.ParamNames = st.names
	}
	if err := st.applyConflict(query, res.Stmt); err != nil {
		return nil, err
	}
	return res, nil
}

// originalError maps the offsets and the query text of err back to the
// original query.
func (st *sqliteText) originalError(query string, err error) error {
	switch e := err.(type) {
	case *rules.ParseError:
		off := e.Offset
		if off >= 0 && off < len(st.orig) {
			off = st.orig[off]
		}
		return &rules.ParseError{Query: query, Offset: min(max(off, 0), len(query)), Msg: e.Msg, Near: e.Near}
	case *rules.UnsupportedError:
		return &rules.UnsupportedError{Query: query, Reason: e.Reason, Tables: e.Tables}
	}
	return err
}

// applyConflict gives the statement the meaning of INSERT OR … / UPDATE
// OR … / REPLACE INTO.
func (st *sqliteText) applyConflict(query string, s sqlir.Statement) error {
	unsupported := func(why string, table string) error {
		return &rules.UnsupportedError{Query: query, Reason: why, Tables: []string{table}}
	}
	switch s := s.(type) {
	case *sqlir.Insert:
		switch st.insertOr {
		case "", "abort", "fail":
			// ABORT is the default; FAIL keeps the rows a multi-row
			// statement inserted before the failing one.
			if st.insertOr == "fail" && len(s.Rows) > 1 {
				return unsupported("INSERT OR FAIL of several rows (keeps the rows before a failing one)", s.Table)
			}
		case "replace":
			if s.HasOnConflict || s.OnConflictNothing {
				return unsupported("INSERT OR REPLACE with an ON CONFLICT clause", s.Table)
			}
			s.Replace = true
		case "ignore":
			if s.HasOnConflict {
				return unsupported("INSERT OR IGNORE with ON CONFLICT DO UPDATE", s.Table)
			}
			s.OnConflictNothing, s.OrIgnore = true, true
		default: // rollback
			return unsupported("INSERT OR ROLLBACK (a conflict rolls the transaction back)", s.Table)
		}
	case *sqlir.Update:
		switch st.updateOr {
		case "", "abort", "fail":
		case "ignore":
			// A row whose new values would conflict keeps its old ones: the
			// update may or may not apply to each row it selects.
			s.Where = rules.And(s.Where, &sqlir.Unknown{Text: "no row conflicts with the updated row (UPDATE OR IGNORE)"})
		default:
			return unsupported("UPDATE OR "+strings.ToUpper(st.updateOr)+" (conflicting rows are deleted or the transaction rolled back)", s.Table)
		}
	}
	return nil
}

// rewriteSQLite turns a SQLite query into Postgres text of the same length
// structure (see sqliteText).
func rewriteSQLite(q string) (*sqliteText, error) {
	r := &sqliteRewriter{q: q, st: &sqliteText{}, named: map[string]int{}}
	for i := 0; i < len(q); {
		j, err := r.token(i)
		if err != nil {
			return nil, err
		}
		i = j
	}
	st := r.st
	st.orig = append(st.orig, len(q))
	if r.positional && len(r.named) > 0 {
		return nil, &rules.ParseError{Query: q, Msg: "query mixes ? and named parameters"}
	}
	st.count = r.next
	if len(r.named) == 0 {
		st.names = nil
	}
	st.text = r.b.String()
	st.conflictClause()
	return st, nil
}

// sqliteRewriter is the state of rewriteSQLite.
type sqliteRewriter struct {
	q     string
	st    *sqliteText
	b     strings.Builder
	named map[string]int // parameter name → index
	// positional is set once a ?, ?NNN or $NNN placeholder is seen.
	positional bool
	next       int // the index a bare "?" takes: one past the largest so far
}

// emit writes s in place of the original text at offset from.
func (r *sqliteRewriter) emit(s string, from int) {
	for range len(s) {
		r.st.orig = append(r.st.orig, from)
	}
	r.b.WriteString(s)
}

// keep copies q[i:j] unchanged.
func (r *sqliteRewriter) keep(i, j int) {
	for k := i; k < j; k++ {
		r.st.orig = append(r.st.orig, k)
	}
	r.b.WriteString(r.q[i:j])
}

// token rewrites the token at offset i and returns the offset after it.
func (r *sqliteRewriter) token(i int) (int, error) {
	q := r.q
	c := q[i]
	switch {
	case c == '\'' || c == '"':
		j := rules.QuotedEnd(q, i, c)
		r.keep(i, j)
		return j, nil
	case c == '`' || c == '[':
		return r.quotedName(i)
	case c == '-' && strings.HasPrefix(q[i:], "--"), c == '/' && strings.HasPrefix(q[i:], "/*"):
		j := rules.SkipSpaceComments(q, i)
		r.keep(i, j)
		return j, nil
	case c == '=' && strings.HasPrefix(q[i:], "=="):
		r.emit("= ", i)
		return i + 2, nil
	case c == '?' || c == '$' && i+1 < len(q) && '0' <= q[i+1] && q[i+1] <= '9':
		return r.numberedParam(i)
	case (c == ':' || c == '@' || c == '$') && i+1 < len(q) && rules.IsWordByte(q[i+1]) && !(c == ':' && i > 0 && q[i-1] == ':'):
		return r.namedParam(i), nil
	case rules.IsWordByte(c) && (i == 0 || !rules.IsWordByte(q[i-1])):
		return r.word(i), nil
	}
	r.keep(i, i+1)
	return i + 1, nil
}

// quotedName rewrites `name` and [name] into "name".
func (r *sqliteRewriter) quotedName(i int) (int, error) {
	q := r.q
	end := byte('`')
	if q[i] == '[' {
		end = ']'
	}
	j := strings.IndexByte(q[i+1:], end)
	if j < 0 {
		return 0, &rules.ParseError{Query: q, Offset: i, Msg: "unterminated quoted identifier"}
	}
	name := q[i+1 : i+1+j]
	if strings.ContainsRune(name, '"') {
		return 0, &rules.ParseError{Query: q, Offset: i, Msg: "quoted identifier holds a double quote"}
	}
	r.emit(`"`, i)
	r.keep(i+1, i+1+j)
	r.emit(`"`, i+1+j)
	return i + j + 2, nil
}

// numberedParam rewrites ?, ?NNN and $NNN (numbered as by
// modernc.org/sqlite) into $n.
func (r *sqliteRewriter) numberedParam(i int) (int, error) {
	q := r.q
	j := i + 1
	for j < len(q) && '0' <= q[j] && q[j] <= '9' {
		j++
	}
	idx := r.next
	if j > i+1 {
		n, err := strconv.Atoi(q[i+1 : j])
		if err != nil || n < 1 || n > 32766 {
			return 0, &rules.ParseError{Query: q, Offset: i, Msg: "bad parameter number", Near: q[i:j]}
		}
		idx = n - 1
	}
	r.positional = true
	r.next = max(r.next, idx+1)
	r.emit("$"+strconv.Itoa(idx+1), i)
	return j, nil
}

// namedParam rewrites :name, @name and $name into $n, n counting names in
// order of first appearance.
func (r *sqliteRewriter) namedParam(i int) int {
	q := r.q
	j := i + 1
	for j < len(q) && rules.IsWordByte(q[j]) {
		j++
	}
	name := q[i+1 : j]
	idx, ok := r.named[name]
	if !ok {
		idx = r.next
		r.named[name] = idx
		r.st.names = append(r.st.names, name)
		r.next++
	}
	r.emit("$"+strconv.Itoa(idx+1), i)
	return j
}

// word rewrites the SQLite-only operator words (GLOB, REGEXP, IS [NOT])
// and keeps the others.
func (r *sqliteRewriter) word(i int) int {
	q := r.q
	_, j := wordAt(q, i)
	word := strings.ToLower(q[i:j])
	if rw, ok := sqliteWordRewrites[word]; ok {
		r.emit(rw, i)
		return j
	}
	if word == "is" {
		if text, end, ok := sqliteIs(q, j); ok {
			r.emit(text, i)
			return end
		}
	}
	r.keep(i, j)
	return j
}

// conflictClause blanks out the "OR <action>" of INSERT OR … and UPDATE
// OR …, and turns REPLACE INTO into INSERT INTO, recording which.
func (st *sqliteText) conflictClause() {
	t := st.text
	w1s, w1e := wordAt(t, rules.SkipSpaceComments(t, 0))
	first := strings.ToLower(t[w1s:w1e])
	switch first {
	case "replace":
		st.insertOr = "replace"
		st.text = t[:w1s] + "INSERT " + t[w1e:]
		return
	case "insert", "update":
	default:
		return
	}
	w2s, w2e := wordAt(t, rules.SkipSpaceComments(t, w1e))
	if !strings.EqualFold(t[w2s:w2e], "or") {
		return
	}
	w3s, w3e := wordAt(t, rules.SkipSpaceComments(t, w2e))
	action := strings.ToLower(t[w3s:w3e])
	switch action {
	case "replace", "ignore", "abort", "fail", "rollback":
	default:
		return
	}
	if first == "insert" {
		st.insertOr = action
	} else {
		st.updateOr = action
	}
	st.text = t[:w2s] + strings.Repeat(" ", w3e-w2s) + t[w3e:]
}

// wordAt returns the extent of the word starting at i (empty when none).
func wordAt(s string, i int) (start, end int) {
	j := i
	for j < len(s) && rules.IsWordByte(s[j]) {
		j++
	}
	return i, j
}

// sqliteFunction models SQLite's conditional scalar functions: iif(c, a,
// b), ifnull(a, b), and max/min with two or more arguments (NULL when any
// argument is NULL, unlike Postgres's GREATEST and LEAST). nil for others.
func (t *translator) sqliteFunction(name string, f *pg.FuncCall) sqlir.Expr {
	switch n := len(f.Args); {
	case name == "iif" && n == 3:
		args := t.exprs(f.Args)
		return rules.If(args[0], args[1], args[2])
	case name == "ifnull" && n == 2:
		return rules.Coalesce(t.exprs(f.Args))
	case (name == "max" || name == "min") && n >= 2:
		// Scalar max/min: NULL when any argument is NULL; its arguments
		// compare without affinity (a column's does not convert a bound
		// text: adv19's max(balance, ?) with a Go string "-5" stores -5).
		args := t.exprs(f.Args)
		for i, a := range args {
			if c, ok := a.(*sqlir.ColRef); ok {
				args[i] = &sqlir.ColRef{Table: c.Table, Name: c.Name, NoAffinity: true}
			}
		}
		return rules.GreatestLeast(name == "min", args, rules.NullIfAnyNull)
	}
	return nil
}

// sqliteTxStatement recognises SQLite's transaction control: BEGIN
// [DEFERRED | IMMEDIATE | EXCLUSIVE] [TRANSACTION], COMMIT / END
// [TRANSACTION], ROLLBACK [TRANSACTION] [TO [SAVEPOINT] name], SAVEPOINT
// name and RELEASE [SAVEPOINT] name.
func sqliteTxStatement(q string, w []string) (sqlir.Statement, error, bool) {
	if w[0] == "begin" {
		for _, x := range w[1:] {
			switch x {
			case "deferred", "immediate", "exclusive", "transaction":
			default:
				return nil, nil, false
			}
		}
		return &sqlir.TxControl{Kind: sqlir.TxBegin}, nil, true
	}
	return rules.TxStatement(q, w)
}

// sqliteWordRewrites maps SQLite operators the Postgres grammar lacks to
// Postgres operators of the same length whose meaning the IR does not
// model either (both become Unknown).
var sqliteWordRewrites = map[string]string{"glob": "LIKE", "regexp": "~     "}

// sqliteIs rewrites SQLite's "x IS y" / "x IS NOT y" with y other than
// NULL, TRUE, FALSE (null-safe equality) into IS [NOT] DISTINCT FROM; i
// is just past "IS". It returns the replacement of "IS [NOT]" and the
// offset just past it.
func sqliteIs(q string, i int) (text string, end int, ok bool) {
	j := rules.SkipSpaceComments(q, i)
	ws, we := wordAt(q, j)
	not := strings.EqualFold(q[ws:we], "not")
	if not {
		end = we
		j = rules.SkipSpaceComments(q, we)
		ws, we = wordAt(q, j)
	} else {
		end = i
	}
	switch strings.ToLower(q[ws:we]) {
	case "null", "true", "false", "unknown", "distinct", "not":
		return "", 0, false
	}
	if j >= len(q) {
		return "", 0, false
	}
	if not {
		return "IS DISTINCT FROM", end, true
	}
	return "IS NOT DISTINCT FROM", end, true
}
