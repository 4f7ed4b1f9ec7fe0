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

// parseSQLite parses one SQLite statement.
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
			s.OnConflictNothing = true
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
	st := &sqliteText{}
	var b strings.Builder
	emit := func(s string, from int) {
		for i := 0; i < len(s); i++ {
			st.orig = append(st.orig, from)
		}
		b.WriteString(s)
	}
	named := map[string]int{}
	positional := false
	next := 0 // the index a bare "?" takes: one past the largest so far
	i := 0
	for i < len(q) {
		c := q[i]
		switch {
		case c == '\'' || c == '"':
			j := rules.QuotedEnd(q, i, c)
			for k := i; k < j; k++ {
				st.orig = append(st.orig, k)
			}
			b.WriteString(q[i:j])
			i = j
		case c == '`' || c == '[':
			end := byte('`')
			if c == '[' {
				end = ']'
			}
			j := strings.IndexByte(q[i+1:], end)
			if j < 0 {
				return nil, &rules.ParseError{Query: q, Offset: i, Msg: "unterminated quoted identifier"}
			}
			name := q[i+1 : i+1+j]
			if strings.ContainsRune(name, '"') {
				return nil, &rules.ParseError{Query: q, Offset: i, Msg: "quoted identifier holds a double quote"}
			}
			emit(`"`, i)
			for k := 0; k < len(name); k++ {
				st.orig = append(st.orig, i+1+k)
			}
			b.WriteString(name)
			emit(`"`, i+1+j)
			i += j + 2
		case c == '-' && strings.HasPrefix(q[i:], "--"), c == '/' && strings.HasPrefix(q[i:], "/*"):
			j := rules.SkipSpaceComments(q, i)
			for k := i; k < j; k++ {
				st.orig = append(st.orig, k)
			}
			b.WriteString(q[i:j])
			i = j
		case c == '=' && strings.HasPrefix(q[i:], "=="):
			emit("= ", i)
			i += 2
		case c == '?' || c == '$' && i+1 < len(q) && '0' <= q[i+1] && q[i+1] <= '9':
			// ?, ?NNN and $NNN (numbered as by modernc.org/sqlite).
			j := i + 1
			for j < len(q) && '0' <= q[j] && q[j] <= '9' {
				j++
			}
			idx := next
			if j > i+1 {
				n, err := strconv.Atoi(q[i+1 : j])
				if err != nil || n < 1 || n > 32766 {
					return nil, &rules.ParseError{Query: q, Offset: i, Msg: "bad parameter number", Near: q[i:j]}
				}
				idx = n - 1
			}
			positional = true
			next = max(next, idx+1)
			emit("$"+strconv.Itoa(idx+1), i)
			i = j
		case (c == ':' || c == '@' || c == '$') && i+1 < len(q) && rules.IsWordByte(q[i+1]) && !(c == ':' && i > 0 && q[i-1] == ':'):
			j := i + 1
			for j < len(q) && rules.IsWordByte(q[j]) {
				j++
			}
			name := q[i+1 : j]
			idx, ok := named[name]
			if !ok {
				idx = next
				named[name] = idx
				st.names = append(st.names, name)
				next++
			}
			emit("$"+strconv.Itoa(idx+1), i)
			i = j
		case rules.IsWordByte(c) && (i == 0 || !rules.IsWordByte(q[i-1])):
			_, j := wordAt(q, i)
			word := strings.ToLower(q[i:j])
			if r, ok := sqliteWordRewrites[word]; ok {
				emit(r, i)
				i = j
				continue
			}
			if word == "is" {
				if text, end, ok := sqliteIs(q, j); ok {
					emit(text, i)
					i = end
					continue
				}
			}
			for k := i; k < j; k++ {
				st.orig = append(st.orig, k)
			}
			b.WriteString(q[i:j])
			i = j
		default:
			st.orig = append(st.orig, i)
			b.WriteByte(c)
			i++
		}
	}
	st.orig = append(st.orig, len(q))
	if positional && len(named) > 0 {
		return nil, &rules.ParseError{Query: q, Msg: "query mixes ? and named parameters"}
	}
	st.count = next
	if len(named) == 0 {
		st.names = nil
	}
	st.text = b.String()
	st.conflictClause()
	return st, nil
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
	switch {
	case name == "iif" && len(f.Args) == 3:
		args := t.exprs(f.Args)
		return &sqlir.Case{Whens: []sqlir.When{{Cond: args[0], Val: args[1]}}, Else: args[2]}
	case name == "ifnull" && len(f.Args) == 2:
		args := t.exprs(f.Args)
		return &sqlir.Case{Whens: []sqlir.When{{Cond: &sqlir.IsNull{X: args[0], Not: true}, Val: rules.Clone(args[0])}}, Else: args[1]}
	case (name == "max" || name == "min") && len(f.Args) >= 2 && len(f.Args) <= 4:
		op := ">="
		if name == "min" {
			op = "<="
		}
		args := t.exprs(f.Args)
		c := &sqlir.Case{}
		for _, a := range args {
			if !rules.IsLiteral(a) {
				c.Whens = append(c.Whens, sqlir.When{Cond: &sqlir.IsNull{X: rules.Clone(a)}, Val: &sqlir.Null{}})
			}
		}
		// Without NULLs: the first argument not beaten by a later one.
		acc := args[0]
		for _, b := range args[1:] {
			acc = &sqlir.Case{Whens: []sqlir.When{{Cond: &sqlir.Binary{Op: op, X: rules.Clone(acc), Y: rules.Clone(b)}, Val: rules.Clone(acc)}}, Else: rules.Clone(b)}
		}
		if len(c.Whens) == 0 {
			return acc
		}
		c.Else = acc
		return c
	}
	return nil
}

// sqliteTxStatement recognises SQLite's transaction control: BEGIN
// [DEFERRED | IMMEDIATE | EXCLUSIVE] [TRANSACTION], COMMIT / END
// [TRANSACTION], ROLLBACK [TRANSACTION] (TO SAVEPOINT is unsupported).
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
