package pipeline

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// The check-then-insert finding (issue 11 §4, SARIF DBV006): a request
// reads whether a row exists (SELECT … WHERE k = $1 scanning a row, or
// SELECT count(*) … WHERE k = $1) and, on the path where it found none,
// INSERTs a row with that key, with no lock that blocks a concurrent
// insert of the key held from the read to the insert. Two requests then
// both read none and both insert: duplicate rows where the schema has no
// PRIMARY KEY or UNIQUE key within the key columns, else one request's
// INSERT fails with a unique violation, which is reported (a weaker
// message) only where the code does not handle it (no ON CONFLICT / INSERT
// IGNORE / ON DUPLICATE KEY, and no check of the error's code after the
// INSERT in its function: "23505", 1062, pgerrcode.UniqueViolation, a
// string "duplicate" or "unique", a name with Duplicate or DupEntry).
//
// The engine decides, per transaction (the read's level, as for the
// lost-update finding): PostgreSQL READ COMMITTED and REPEATABLE READ let
// both reads see no row (a FOR UPDATE of a missing row locks nothing);
// SERIALIZABLE aborts one request (40001). MySQL (InnoDB) plain reads take
// no lock at READ COMMITTED and REPEATABLE READ; a locking read (FOR
// UPDATE, FOR SHARE) of a missing row takes a gap lock at REPEATABLE
// READ, and SERIALIZABLE makes every read one: the two INSERTs then
// deadlock (one fails), no duplicate. A read that commits before the
// INSERT runs (each statement on its own) protects nothing at any level.
// SQLite runs transactions one at a time: no finding.
//
// The decision is semantic, per path, with the lost-update finding's
// symbolic execution (pathWalker): one solver query asks whether the
// path inserts only when the read found none (a path that inserts
// whatever the read found is no check), a second for two requests on the
// path, with the same key, that both read none (and lock different rows
// before their reads, if they lock any).

// countItem names the count(*) of a counting read in rowAccess.reads.
const countItem = "count(*)"

// existenceRead returns the read of a SELECT edge that tells whether a
// row with a key exists: one table, a WHERE of key equalities, either
// count(*) alone (scanned) or a row's columns (nil: not one). Locking
// reads (FOR UPDATE, FOR SHARE) are kept; the dialect decides.
func existenceRead(e *ir.Edge) *rowAccess {
	s, ok := e.Stmt.(*ir.Select)
	if !ok || s.LockOnly || s.SQL.Table == "" || s.SQL.Where == nil {
		return nil
	}
	r := &rowAccess{edge: e, table: strings.ToLower(s.SQL.Table), key: map[string]int{}, reads: map[string]*ir.Var{}}
	if !keyEqualities(s.SQL.Where, r.key) || !argsKnown(s.Args, r.key) {
		return nil
	}
	if s.SQL.Complex {
		if s.SQL.Reason != "aggregate COUNT" || len(s.SQL.Columns) != 1 || len(s.Targets) != 1 || s.Targets[0] == nil || s.Targets[0].Type != ir.Int {
			return nil
		}
		r.reads[countItem] = s.Targets[0]
	}
	return r
}

// keyInsert returns the INSERT … VALUES of one row of an edge, with the
// placeholders of the columns it gives (nil: not one).
func keyInsert(e *ir.Edge) *rowAccess {
	x, ok := e.Stmt.(*ir.Exec)
	if !ok {
		return nil
	}
	q, ok := x.SQL.(*sqlir.Insert)
	if !ok || q.FromSelect || len(q.Rows) != 1 || q.Replace {
		return nil
	}
	w := &rowAccess{edge: e, table: strings.ToLower(q.Table), writes: map[string]int{}}
	for i, c := range q.Columns {
		if i >= len(q.Rows[0]) {
			break
		}
		if p, ok := q.Rows[0][i].(*sqlir.Param); ok && p.Index < len(x.Args) && x.Args[p.Index] != nil {
			w.writes[strings.ToLower(c)] = p.Index
		}
	}
	return w
}

// insertsKey reports whether insert w gives every key column of read r a
// value, in r's table.
func insertsKey(r, w *rowAccess) bool {
	if r.table != w.table {
		return false
	}
	for c := range r.key {
		if _, ok := w.writes[c]; !ok {
			return false
		}
	}
	return true
}

// checkInsertCandidates returns the existence reads and the INSERTs of
// prog that may form a check-then-insert.
func checkInsertCandidates(prog *ir.Program) (map[*ir.Edge]*rowAccess, map[*ir.Edge]*rowAccess) {
	var reads, inserts []*rowAccess
	for _, e := range prog.Edges {
		if r := existenceRead(e); r != nil {
			reads = append(reads, r)
		} else if w := keyInsert(e); w != nil {
			inserts = append(inserts, w)
		}
	}
	rs, ws := map[*ir.Edge]*rowAccess{}, map[*ir.Edge]*rowAccess{}
	for _, r := range reads {
		for _, w := range inserts {
			if insertsKey(r, w) {
				rs[r.edge], ws[w.edge] = r, w
			}
		}
	}
	return rs, ws
}

// keyColumns returns the key columns of a read in the order of their
// placeholders.
func keyColumns(r *rowAccess) []string {
	var out []string
	for c := range r.key {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return r.key[out[i]] < r.key[out[j]] })
	return out
}

// uniqueKeyWithin returns the first PRIMARY KEY or UNIQUE key of the
// schema's table t whose columns are all among cols (two rows equal on
// cols then conflict), or nil.
func uniqueKeyWithin(t *sqlir.Table, cols []string) []string {
	if t == nil {
		return nil
	}
	in := map[string]bool{}
	for _, c := range cols {
		in[c] = true
	}
	for _, k := range t.Keys {
		all := len(k) > 0
		for _, c := range k {
			all = all && in[strings.ToLower(c)]
		}
		if all {
			return k
		}
	}
	return nil
}

// uniqueHandling tells whether the code handles a unique violation of an
// INSERT: a conflict clause of the statement, else a check of the
// error's code after the INSERT in the function around it; "" if
// neither.
type uniqueHandling struct {
	dir   string
	files map[string]*ast.File
	fset  *token.FileSet
}

func newUniqueHandling(dir string) *uniqueHandling {
	return &uniqueHandling{dir: dir, files: map[string]*ast.File{}, fset: token.NewFileSet()}
}

// handled says how the code handles a unique violation of INSERT x ("":
// it does not, as far as its function shows).
func (u *uniqueHandling) handled(x *ir.Exec) string {
	if q, ok := x.SQL.(*sqlir.Insert); ok && (q.HasOnConflict || q.OnConflictNothing) {
		return "its conflict clause"
	}
	f := u.file(x.Info.File)
	if f == nil {
		return ""
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil || u.fset.Position(fn.Pos()).Line > x.Info.Line || u.fset.Position(fn.End()).Line < x.Info.Line {
			continue
		}
		if at := u.codeCheck(fn.Body, x.Info.Line); at != "" {
			return at
		}
	}
	return ""
}

// codeCheck returns where body, after line, tests an error for a unique
// violation ("" if nowhere).
func (u *uniqueHandling) codeCheck(body *ast.BlockStmt, line int) string {
	var at string
	ast.Inspect(body, func(n ast.Node) bool {
		if at != "" || n == nil || u.fset.Position(n.Pos()).Line < line {
			return at == ""
		}
		if uniqueViolationMark(n) {
			p := u.fset.Position(n.Pos())
			at = "the check of the error at " + filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
		}
		return at == ""
	})
	return at
}

// uniqueViolationMark reports a literal or a name that stands for a
// unique violation: "23505", 1062, a string with "duplicate" or
// "unique", a name with UniqueViolation, Duplicate or DupEntry.
func uniqueViolationMark(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.BasicLit:
		v := strings.ToLower(strings.Trim(n.Value, "`\""))
		return v == "23505" || v == "1062" || (n.Kind == token.STRING && (strings.Contains(v, "duplicate") || strings.Contains(v, "unique")))
	case *ast.Ident:
		name := strings.ToLower(n.Name)
		return strings.Contains(name, "uniqueviolation") || strings.Contains(name, "duplicate") || strings.Contains(name, "dupentry")
	}
	return false
}

// file parses a source file of the program once (nil: unreadable).
func (u *uniqueHandling) file(name string) *ast.File {
	if f, ok := u.files[name]; ok {
		return f
	}
	path := name
	if !filepath.IsAbs(path) && u.dir != "" {
		path = filepath.Join(u.dir, path)
	}
	f, err := parser.ParseFile(u.fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		f = nil
	}
	u.files[name] = f
	return f
}
