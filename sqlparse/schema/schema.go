package schema

import (
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
	"github.com/dbverify/dbverify/sqlparse/mysql"
	"github.com/dbverify/dbverify/sqlparse/postgres"
)

// Parse reads DDL text (statements separated by ';') and returns the
// tables it creates. See Load for what is understood. Errors are
// *Error values carrying the line.
func Parse(ddl string) (*sqlir.Schema, error) {
	b := newSchemaBuilder()
	if err := b.file("", ddl); err != nil {
		return nil, err
	}
	return b.schema(), nil
}

// Load reads a .sql file, or every *.sql file of a directory (not
// recursively) in order of their names, except golang-migrate "*.down.sql"
// files. Names that start with a version number are ordered by that number
// (so "2_x.sql" comes before "10_y.sql"), others lexically. Files with goose
// ("-- +goose Up"), sql-migrate ("-- +migrate Up") or dbmate ("-- migrate:up")
// markers contribute only their up sections.
//
// Understood statements: CREATE TABLE (columns with type, NOT NULL and
// DEFAULT, serial types, identity and AUTO_INCREMENT columns, column and
// table PRIMARY KEY / UNIQUE / CHECK, named with CONSTRAINT or anonymous,
// LIKE), CREATE UNIQUE INDEX (non-partial, on plain columns),
// ALTER TABLE (ADD/DROP/ALTER/MODIFY/CHANGE/RENAME of columns and
// constraints, SET/DROP DEFAULT), DROP TABLE, DROP INDEX and RENAME TABLE. Other statements
// are skipped. A CREATE or ALTER TABLE that cannot be understood, or a
// CHECK expression that does not parse, is an error (*Error with
// file and line). CHECK bodies in Postgres-only syntax (~*, IS DISTINCT
// FROM, …) are parsed with the Postgres grammar; one that parses but is no
// row-level constraint is skipped and reported in Schema.Warnings.
// Anonymous checks are named "<table>_check<N>".
//
// Keys are only recorded when certain: expression keys, partial unique
// indexes and deferrable constraints are left out (fewer keys is the safe
// side for the row model's aliasing).
func Load(path string) (*sqlir.Schema, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("load schema: %w", err)
	}
	files := []string{path}
	if info.IsDir() {
		entries, err := os.ReadDir(path)
		if err != nil {
			return nil, fmt.Errorf("load schema: %w", err)
		}
		files = nil
		for _, e := range entries {
			name := e.Name()
			lower := strings.ToLower(name)
			if e.IsDir() || !strings.HasSuffix(lower, ".sql") || strings.HasSuffix(lower, ".down.sql") {
				continue
			}
			files = append(files, filepath.Join(path, name))
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("load schema: no .sql files in %s", path)
		}
		sort.SliceStable(files, func(i, j int) bool {
			return migrationLess(filepath.Base(files[i]), filepath.Base(files[j]))
		})
	}
	b := newSchemaBuilder()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("load schema: %w", err)
		}
		if err := b.file(f, string(data)); err != nil {
			return nil, err
		}
	}
	return b.schema(), nil
}

var leadingVersion = regexp.MustCompile(`^[0-9]+`)

// migrationLess orders file names by leading version number, then name.
func migrationLess(a, b string) bool {
	va, vb := leadingVersion.FindString(a), leadingVersion.FindString(b)
	if va != "" && vb != "" {
		ta, tb := strings.TrimLeft(va, "0"), strings.TrimLeft(vb, "0")
		if len(ta) != len(tb) {
			return len(ta) < len(tb)
		}
		if ta != tb {
			return ta < tb
		}
	}
	return a < b
}

// ---- the builder ----------------------------------------------------------

type keyDef struct {
	names   []string // lower-cased names that DROP can use
	cols    []string
	primary bool
}

type checkDef struct {
	names []string // lower-cased names that DROP can use
	c     sqlir.Constraint
}

type tableDef struct {
	name   string
	cols   []sqlir.Column
	keys   []keyDef
	checks []checkDef
	anon   int // anonymous checks so far
}

func (t *tableDef) col(name string) int {
	for i, c := range t.cols {
		if strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}

type schemaBuilder struct {
	tables   map[string]*tableDef
	warnings []string
	// triggers, views and functions (lower-case name → text), see
	// objects.go.
	triggers  []pendingTrigger
	views     map[string]*sqlir.View
	functions map[string]string
}

func newSchemaBuilder() *schemaBuilder {
	return &schemaBuilder{tables: map[string]*tableDef{}, views: map[string]*sqlir.View{}, functions: map[string]string{}}
}

func (b *schemaBuilder) schema() *sqlir.Schema {
	s := &sqlir.Schema{Tables: map[string]*sqlir.Table{}, Warnings: append([]string(nil), b.warnings...)}
	for k, td := range b.tables {
		t := &sqlir.Table{Name: td.name, Columns: append([]sqlir.Column(nil), td.cols...)}
		var seen []map[string]bool
		add := func(cols []string) {
			set := map[string]bool{}
			for _, c := range cols {
				set[strings.ToLower(c)] = true
			}
			for _, s := range seen {
				if len(s) == len(set) && subset(set, s) {
					return
				}
			}
			seen = append(seen, set)
			t.Keys = append(t.Keys, append([]string(nil), cols...))
		}
		for _, kd := range td.keys {
			if kd.primary {
				add(kd.cols)
			}
		}
		for _, kd := range td.keys {
			if !kd.primary {
				add(kd.cols)
			}
		}
		for _, cd := range td.checks {
			t.Checks = append(t.Checks, cd.c)
		}
		s.Tables[k] = t
	}
	b.objects(s)
	return s
}

func subset(a, b map[string]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// stmtCtx locates errors of one statement.
type stmtCtx struct {
	file string
	src  string // the whole file
	text string // the statement
	off  int    // offset of text in src
}

func (c *stmtCtx) errAt(pos int, format string, args ...any) error {
	return &Error{File: c.file, Line: lineAt(c.src, c.off+pos), Err: fmt.Errorf(format, args...)}
}

func (b *schemaBuilder) file(name, src string) error {
	src = upSections(src)
	for _, st := range splitStatements(src) {
		ctx := &stmtCtx{file: name, src: src, text: st.Text, off: st.Off}
		if err := b.statement(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (b *schemaBuilder) statement(ctx *stmtCtx) error {
	words, _ := rules.LeadingWords(ctx.text)
	if len(words) < 2 {
		return nil
	}
	if words[0] == "create" && b.object(ctx) {
		return nil
	}
	relevant := false
	switch words[0] {
	case "create", "alter":
		for _, w := range words[1:] {
			if w == "table" || w == "index" {
				relevant = true
				break
			}
		}
	case "drop", "rename":
		relevant = words[1] == "table" || words[1] == "index" || words[1] == "tables"
	}
	if !relevant {
		return nil
	}
	toks, err := lexDDL(ctx.text)
	if err != nil {
		if words[0] == "create" || words[0] == "alter" {
			return ctx.errAt(0, "%s: %v", strings.ToUpper(words[0]+" "+words[1]), err)
		}
		return nil
	}
	p := &ddlParser{ctx: ctx, toks: toks}
	switch words[0] {
	case "create":
		return b.create(p)
	case "alter":
		return b.alter(p)
	case "drop":
		b.drop(p)
	case "rename":
		b.renameTables(p)
	}
	return nil
}

// ---- token cursor -------------------------------------------------------

type ddlParser struct {
	ctx  *stmtCtx
	toks []tok
	i    int
}

func (p *ddlParser) eof() bool { return p.i >= len(p.toks) }

func (p *ddlParser) peek() tok {
	if p.eof() {
		return tok{kind: tPunct, val: "", pos: len(p.ctx.text), end: len(p.ctx.text)}
	}
	return p.toks[p.i]
}

// accept consumes the keywords ws if they come next.
func (p *ddlParser) accept(ws ...string) bool {
	for k, w := range ws {
		if p.i+k >= len(p.toks) || !p.toks[p.i+k].is(w) {
			return false
		}
	}
	p.i += len(ws)
	return true
}

// name consumes a possibly qualified name and returns its last part.
func (p *ddlParser) name() (string, bool) {
	if !p.peek().isIdent() {
		return "", false
	}
	n := p.toks[p.i].val
	p.i++
	for p.peek().isPunct(".") && p.i+1 < len(p.toks) && p.toks[p.i+1].isIdent() {
		n = p.toks[p.i+1].val
		p.i += 2
	}
	return n, true
}

func (p *ddlParser) errHere(format string, args ...any) error {
	return p.ctx.errAt(p.peek().pos, format, args...)
}

// ---- CREATE ---------------------------------------------------------------

func (b *schemaBuilder) create(p *ddlParser) error {
	p.accept("create")
	p.accept("or", "replace")
	unique := false
	for {
		switch {
		case p.accept("global"), p.accept("local"), p.accept("temporary"), p.accept("temp"),
			p.accept("unlogged"), p.accept("clustered"), p.accept("nonclustered"):
			continue
		case p.accept("unique"):
			unique = true
			continue
		}
		break
	}
	switch {
	case p.accept("table"):
		return b.createTable(p)
	case p.accept("index"):
		if unique {
			b.createUniqueIndex(p)
		}
	}
	return nil
}

func (b *schemaBuilder) createTable(p *ddlParser) error {
	ifNotExists := p.accept("if", "not", "exists")
	start := p.peek().pos
	name, ok := p.name()
	if !ok {
		return p.errHere("CREATE TABLE: expected a table name")
	}
	key := strings.ToLower(name)
	if _, exists := b.tables[key]; exists && ifNotExists {
		return nil
	}
	td := &tableDef{name: name}
	switch {
	case p.peek().isPunct("("):
		open := p.i
		close := matchParen(p.toks, open)
		if close < 0 {
			return p.ctx.errAt(start, "CREATE TABLE %s: unbalanced parentheses", name)
		}
		elems := splitCommas(p.toks[open+1 : close])
		if len(elems) == 1 && len(elems[0]) == 0 {
			break // CREATE TABLE t () is legal in Postgres
		}
		var pending []pendingCheck
		for _, el := range elems {
			if len(el) == 0 {
				return p.ctx.errAt(p.toks[open].pos, "CREATE TABLE %s: empty column definition", name)
			}
			if err := b.element(p.ctx, td, el, &pending); err != nil {
				return err
			}
		}
		if err := b.addChecks(p.ctx, td, pending); err != nil {
			return err
		}
	case p.accept("like"), p.accept("as"), p.accept("partition", "of"), p.accept("clone"):
		if p.toks[p.i-1].is("like") {
			if src, ok := p.name(); ok {
				b.copyTable(td, src, true, true) // MySQL: an exact copy
			}
		}
		// AS SELECT / PARTITION OF: the columns are not written here.
	default:
		return p.ctx.errAt(start, "CREATE TABLE %s: expected a column list", name)
	}
	b.tables[key] = td
	return nil
}

// copyTable copies columns (and, with all, keys and checks) of table src
// into td, for CREATE TABLE … LIKE. Without defaults, the copies have no
// DEFAULT (Postgres LIKE without INCLUDING DEFAULTS/IDENTITY).
func (b *schemaBuilder) copyTable(td *tableDef, src string, all, defaults bool) {
	s, ok := b.tables[strings.ToLower(src)]
	if !ok {
		return
	}
	for _, c := range s.cols {
		if !defaults {
			c.HasDefault, c.Default, c.AutoIncrement = false, nil, false
		}
		td.cols = append(td.cols, c)
	}
	if !all {
		return
	}
	for _, k := range s.keys {
		td.keys = append(td.keys, keyDef{cols: append([]string(nil), k.cols...), primary: k.primary})
	}
	for _, c := range s.checks {
		c.c.Table = td.name
		c.c.Expr = renameTable(c.c.Expr, s.name, td.name)
		td.checks = append(td.checks, checkDef{names: c.names, c: c.c})
	}
}

type pendingCheck struct {
	name string
	body []tok // tokens between the parentheses
	pos  int   // offset of CHECK in the statement
	col  string
	open int // offset of '(' in the statement
	end  int // offset of ')' in the statement
}

// isTableConstraintWord reports words that start a table constraint.
func isTableConstraintWord(w string) bool {
	switch strings.ToLower(w) {
	case "constraint", "primary", "unique", "check", "foreign", "key", "index", "fulltext", "spatial":
		return true
	}
	return false
}

// element handles one column definition or table constraint.
func (b *schemaBuilder) element(ctx *stmtCtx, td *tableDef, el []tok, pending *[]pendingCheck) error {
	first := el[0]
	isConstraint := first.kind == tWord && isTableConstraintWord(first.val)
	if first.is("exclude") && len(el) > 1 && (el[1].is("using") || el[1].isPunct("(")) ||
		first.is("period") && len(el) > 1 && el[1].is("for") {
		return nil
	}
	if first.is("like") && len(el) > 1 && el[1].isIdent() {
		q := &ddlParser{ctx: ctx, toks: el, i: 1}
		src, _ := q.name()
		all, including, excluding, defaults := false, false, false, false
		for _, t := range el[q.i:] {
			all = all || t.is("all") || t.is("constraints") || t.is("indexes")
			including = including || t.is("including")
			excluding = excluding || t.is("excluding")
			defaults = defaults || t.is("all") || t.is("defaults")
		}
		// Postgres copies defaults only when asked to; with an EXCLUDING
		// clause, which ones is not worth working out.
		b.copyTable(td, src, all, including && defaults && !excluding)
		return nil
	}
	if isConstraint {
		return b.tableConstraint(ctx, td, el, pending)
	}
	return b.columnDef(ctx, td, el, pending, -1)
}

// tableConstraint handles [CONSTRAINT name] PRIMARY KEY (…) | UNIQUE … |
// CHECK (…) | FOREIGN KEY … | KEY/INDEX ….
func (b *schemaBuilder) tableConstraint(ctx *stmtCtx, td *tableDef, el []tok, pending *[]pendingCheck) error {
	p := &ddlParser{ctx: ctx, toks: el}
	name := ""
	if p.accept("constraint") {
		nt := p.peek()
		if nt.isIdent() && !(nt.kind == tWord && (isTableConstraintWord(nt.val) || nt.is("exclude"))) {
			name, _ = p.name()
		}
	}
	at := p.peek()
	switch {
	case p.accept("primary", "key"):
		b.keyFrom(p, td, name, true)
	case p.accept("unique"):
		if !p.accept("key") {
			p.accept("index")
		}
		b.keyFrom(p, td, name, false)
	case p.accept("check"):
		if !p.peek().isPunct("(") {
			return ctx.errAt(at.pos, "table %s: CHECK without a parenthesised condition", td.name)
		}
		close := matchParen(p.toks, p.i)
		if close < 0 {
			return ctx.errAt(at.pos, "table %s: unbalanced parentheses in CHECK", td.name)
		}
		*pending = append(*pending, pendingCheck{name: name, body: p.toks[p.i+1 : close], pos: at.pos,
			open: p.toks[p.i].pos, end: p.toks[close].pos})
	case p.accept("foreign"), p.accept("key"), p.accept("index"), p.accept("fulltext"),
		p.accept("spatial"), p.accept("exclude"):
		// Not a key in the row model's sense.
	default:
		return ctx.errAt(at.pos, "table %s: cannot understand constraint %q", td.name, strings.TrimSpace(ctx.text[el[0].pos:el[len(el)-1].end]))
	}
	return nil
}

// keyFrom reads "[name] [USING x] (cols) [options]" after PRIMARY KEY or
// UNIQUE and records the key unless it is uncertain.
func (b *schemaBuilder) keyFrom(p *ddlParser, td *tableDef, name string, primary bool) {
	for !p.eof() && !p.peek().isPunct("(") {
		t := p.peek()
		switch {
		case p.accept("using"):
			p.i++ // method
		case p.accept("nulls", "not", "distinct"), p.accept("nulls", "distinct"):
		case t.isIdent() && name == "":
			name = t.val
			p.i++
		default:
			p.i++
		}
	}
	if p.eof() {
		return // e.g. UNIQUE USING INDEX idx: columns unknown
	}
	close := matchParen(p.toks, p.i)
	if close < 0 {
		return
	}
	cols, ok := keyColumns(p.toks[p.i+1 : close])
	// A deferrable key may be violated inside a transaction.
	for k := close + 1; k < len(p.toks); k++ {
		if p.toks[k].is("deferrable") && !p.toks[k-1].is("not") {
			ok = false
		}
	}
	if ok {
		b.addKey(td, name, cols, primary)
	}
}

// keyColumns parses an index column list: plain columns, optionally with a
// prefix length, ASC/DESC, COLLATE or an operator class. An expression
// makes the key uncertain (ok=false).
func keyColumns(toks []tok) ([]string, bool) {
	var cols []string
	for _, part := range splitCommas(toks) {
		if len(part) == 0 || !part[0].isIdent() {
			return nil, false
		}
		rest := part[1:]
		if len(rest) > 0 && rest[0].isPunct("(") {
			// name(10) is a prefix length; name(x) is a function call.
			if len(rest) < 3 || rest[1].kind != tNum || !rest[2].isPunct(")") {
				return nil, false
			}
			rest = rest[3:]
		}
		for _, t := range rest {
			if t.kind == tPunct && t.val != "." {
				return nil, false
			}
		}
		cols = append(cols, part[0].val)
	}
	return cols, len(cols) > 0
}

func (b *schemaBuilder) addKey(td *tableDef, name string, cols []string, primary bool) {
	var names []string
	if name != "" {
		names = append(names, strings.ToLower(name))
	}
	if primary {
		names = append(names, "primary", strings.ToLower(td.name)+"_pkey")
		for _, c := range cols {
			if i := td.col(c); i >= 0 {
				td.cols[i].NotNull = true
			}
		}
	} else {
		names = append(names, strings.ToLower(cols[0]),
			strings.ToLower(td.name+"_"+strings.Join(cols, "_")+"_key"))
	}
	td.keys = append(td.keys, keyDef{names: names, cols: cols, primary: primary})
}

// isColumnStop reports words that end a column's type.
func isColumnStop(w string) bool {
	switch w {
	case "not", "null", "default", "primary", "unique", "check", "references",
		"constraint", "auto_increment", "autoincrement", "comment", "collate",
		"generated", "as", "on", "key", "identity", "charset", "visible",
		"invisible", "stored", "virtual", "storage", "compression", "srid",
		"column_format", "engine_attribute", "secondary_engine_attribute", "using":
		return true
	}
	return false
}

// isSerialType reports Postgres serial types (implicitly NOT NULL).
func isSerialType(t string) bool {
	switch t {
	case "serial", "bigserial", "smallserial", "serial2", "serial4", "serial8":
		return true
	}
	return false
}

// columnDef handles "name type [constraints…]"; at >= 0 replaces column
// at (MODIFY/CHANGE), else the column is appended.
func (b *schemaBuilder) columnDef(ctx *stmtCtx, td *tableDef, el []tok, pending *[]pendingCheck, at int) error {
	if !el[0].isIdent() {
		return ctx.errAt(el[0].pos, "table %s: expected a column name, found %q", td.name, el[0].val)
	}
	col := sqlir.Column{Name: el[0].val}
	j := 1
	typeStart := j
	for j < len(el) {
		t := el[j]
		if t.kind == tWord {
			w := strings.ToLower(t.val)
			if isColumnStop(w) || (w == "character" && j+1 < len(el) && el[j+1].is("set")) {
				break
			}
		}
		if t.isPunct("(") {
			close := matchParen(el, j)
			if close < 0 {
				return ctx.errAt(t.pos, "table %s: unbalanced parentheses in column %s", td.name, col.Name)
			}
			j = close + 1
			continue
		}
		j++
	}
	if j > typeStart {
		col.Type = strings.Join(strings.Fields(strings.ToLower(ctx.text[el[typeStart].pos:el[j-1].end])), " ")
	}
	if isSerialType(col.Type) {
		col.NotNull = true
		col.HasDefault, col.AutoIncrement = true, true
	}
	// Column constraints.
	p := &ddlParser{ctx: ctx, toks: el, i: j}
	cname := ""
	var keys []keyDef
	for !p.eof() {
		t := p.peek()
		switch {
		case p.accept("not", "null"):
			col.NotNull = true
		case p.accept("primary", "key"):
			col.NotNull = true
			keys = append(keys, keyDef{names: nameList(cname), cols: []string{col.Name}, primary: true})
			cname = ""
		case p.accept("unique"):
			p.accept("key")
			keys = append(keys, keyDef{names: nameList(cname), cols: []string{col.Name}})
			cname = ""
		case p.accept("constraint"):
			if p.peek().isIdent() && !isTableConstraintWord(p.peek().val) && !p.peek().is("not") {
				cname, _ = p.name()
			}
		case p.accept("check"):
			if !p.peek().isPunct("(") {
				return ctx.errAt(t.pos, "table %s: CHECK without a parenthesised condition", td.name)
			}
			close := matchParen(p.toks, p.i)
			if close < 0 {
				return ctx.errAt(t.pos, "table %s: unbalanced parentheses in CHECK", td.name)
			}
			*pending = append(*pending, pendingCheck{name: cname, body: p.toks[p.i+1 : close], pos: t.pos,
				col: col.Name, open: p.toks[p.i].pos, end: p.toks[close].pos})
			cname = ""
			p.i = close + 1
		case p.accept("identity"):
			col.NotNull = true
			col.HasDefault = true
			col.AutoIncrement = identityFromOne(p.toks, p.i)
		case p.accept("default"):
			col.HasDefault, col.Default, p.i = defaultValue(p.toks, p.i, col.Type)
			col.AutoIncrement = false
		case p.accept("auto_increment"), p.accept("autoincrement"):
			col.HasDefault, col.AutoIncrement = true, true
		case p.accept("generated"), p.accept("as"):
			// A generated column (or the start of GENERATED … AS
			// IDENTITY): its value is computed, not NULL.
			col.HasDefault = true
			if expr, ok := generatedExpr(p); ok {
				col.Generated = expr
				col.GeneratedExpr = parseGenerated(expr, td.name)
				col.GeneratedPos = fmt.Sprintf("%s:%d", ctx.file, lineAt(ctx.src, ctx.off+t.pos))
				if ctx.file == "" {
					col.GeneratedPos = fmt.Sprintf("line %d", lineAt(ctx.src, ctx.off+t.pos))
				}
			}
		case t.isPunct("("):
			close := matchParen(p.toks, p.i)
			if close < 0 {
				return ctx.errAt(t.pos, "table %s: unbalanced parentheses in column %s", td.name, col.Name)
			}
			p.i = close + 1
		default:
			p.i++
		}
	}
	if at >= 0 {
		td.cols[at] = col
	} else {
		td.cols = append(td.cols, col)
	}
	for _, k := range keys {
		names := k.names
		if k.primary {
			names = append(names, "primary", strings.ToLower(td.name)+"_pkey")
		} else {
			names = append(names, strings.ToLower(col.Name), strings.ToLower(td.name+"_"+col.Name+"_key"))
		}
		td.keys = append(td.keys, keyDef{names: names, cols: k.cols, primary: k.primary})
	}
	return nil
}

func nameList(n string) []string {
	if n == "" {
		return nil
	}
	return []string{strings.ToLower(n)}
}

// ---- CHECK ----------------------------------------------------------------

var (
	anyArrayRE = regexp.MustCompile(`(?i)(=|<>|!=)(\s*)(any|all)(\s*)\((\s*)array(\s*)\[`)
)

// addChecks parses collected CHECK bodies once all columns are known.
func (b *schemaBuilder) addChecks(ctx *stmtCtx, td *tableDef, pending []pendingCheck) error {
	for _, pc := range pending {
		raw := ctx.text[pc.open+1 : pc.end]
		text := strings.TrimSpace(raw)
		prepared := b.prepareCheck(raw, pc.body, pc.open+1, td)
		lead := len(prepared) - len(strings.TrimLeft(prepared, " \t\r\n"))
		c, err := mysql.ParseConstraint(strings.TrimSpace(prepared), td.name)
		var pe *rules.ParseError
		switch {
		case err == nil && hasConcat(pc.body):
			// "||" is OR for MySQL but string concatenation for Postgres
			// (and SQLite): prefer the Postgres reading when it parses.
			if pgc, perr := postgres.ParseConstraint(text, td.name); perr == nil {
				c = pgc
			}
		case errors.As(err, &pe):
			// Postgres-only syntax (~*, ::type, …): try the Postgres grammar.
			pgc, perr := postgres.ParseConstraint(text, td.name)
			var pgpe *rules.ParseError
			switch {
			case perr == nil:
				c, err = pgc, nil
			case !errors.As(perr, &pgpe):
				// Postgres parses it but it is no row-level constraint:
				// skip this CHECK rather than the whole schema.
				if pc.name == "" {
					td.anon++
				}
				b.warnings = append(b.warnings, ctx.errAt(pc.pos, "table %s: CHECK (%s) skipped: %s",
					td.name, strings.Join(strings.Fields(text), " "), unwrapConstraintErr(perr, text)).Error())
				continue
			}
		}
		if err != nil {
			if errors.As(err, &pe) {
				pos := pc.open + 1 + lead + pe.Offset
				if strings.Contains(text, "\n") { // the line is exact; show the check on one line
					return ctx.errAt(pos, "table %s: CHECK (%s): %s", td.name, strings.Join(strings.Fields(text), " "), pe.Describe())
				}
				return ctx.errAt(pos, "table %s: CHECK (%s): %v", td.name, text, pe)
			}
			return ctx.errAt(pc.pos, "table %s: CHECK (%s): %v", td.name, text, unwrapConstraintErr(err, prepared))
		}
		c.Text = text
		c.Table = td.name
		var names []string
		if pc.name != "" {
			c.Name = pc.name
			names = []string{strings.ToLower(pc.name)}
		} else {
			td.anon++
			c.Name = fmt.Sprintf("%s_check%d", td.name, td.anon)
			names = []string{strings.ToLower(c.Name)}
			if pc.col != "" {
				names = append(names, strings.ToLower(td.name+"_"+pc.col+"_check"))
			} else {
				names = append(names, strings.ToLower(td.name+"_check"))
			}
			names = append(names, strings.ToLower(fmt.Sprintf("%s_chk_%d", td.name, td.anon)))
		}
		td.checks = append(td.checks, checkDef{names: names, c: *c})
	}
	return nil
}

// hasConcat reports a "||" operator among toks.
func hasConcat(toks []tok) bool {
	for k := 0; k+1 < len(toks); k++ {
		if toks[k].isPunct("|") && toks[k+1].isPunct("|") && toks[k].end == toks[k+1].pos {
			return true
		}
	}
	return false
}

// unwrapConstraintErr drops the `constraint "…": ` prefix that repeats the
// CHECK text.
func unwrapConstraintErr(err error, text string) string {
	msg := err.Error()
	prefix := fmt.Sprintf("constraint %q: ", strings.TrimSpace(text))
	return strings.TrimPrefix(msg, prefix)
}

// prepareCheck makes Postgres-written CHECK bodies readable by the MySQL
// parser without moving any byte: "::type" casts become spaces, "col"
// (double-quoted column names) become `col`, and "x = ANY (ARRAY[…])" (how
// pg_dump prints IN lists) becomes "x IN (…)".
func (b *schemaBuilder) prepareCheck(raw string, body []tok, base int, td *tableDef) string {
	buf := []byte(raw)
	put := func(pos int, s string) { copy(buf[pos-base:], s) }
	spaces := func(from, to int) {
		for k := from; k < to; k++ {
			buf[k-base] = ' '
		}
	}
	for k := 0; k < len(body); k++ {
		t := body[k]
		switch {
		case t.kind == tQuoted && raw[t.pos-base] == '"' && td.col(t.val) >= 0:
			put(t.pos, "`")
			put(t.end-1, "`")
		case t.isPunct("::"):
			end := k + 1
			for end < len(body) && body[end].isIdent() {
				end++
				for end < len(body) && body[end].kind == tWord && isTypeContinuation(body[end].val) {
					end++
				}
				if end < len(body) && body[end].isPunct(".") {
					end++
					continue
				}
				break
			}
			if end < len(body) && body[end].isPunct("(") {
				if c := matchParen(body, end); c > 0 {
					end = c + 1
				}
			}
			for end+1 < len(body) && body[end].isPunct("[") && body[end+1].isPunct("]") {
				end += 2
			}
			spaces(t.pos, body[end-1].end)
			k = end - 1
		}
	}
	out := string(buf)
	// = ANY (ARRAY[a, b]) → IN (a, b), <> ALL (ARRAY[…]) → NOT IN (…).
	for {
		m := anyArrayRE.FindStringSubmatchIndex(out)
		if m == nil {
			break
		}
		op := out[m[2]:m[3]]
		quant := strings.ToLower(out[m[6]:m[7]])
		closeBr := strings.Index(out[m[1]:], "]")
		if closeBr < 0 {
			break
		}
		closeBr += m[1]
		j := closeBr + 1
		for j < len(out) && rules.IsSpace(out[j]) {
			j++
		}
		if j >= len(out) || out[j] != ')' {
			break
		}
		repl := "IN ("
		if op != "=" && quant == "all" {
			repl = "NOT IN ("
		} else if op != "=" || quant != "any" {
			break
		}
		head := repl + strings.Repeat(" ", m[1]-m[0]-len(repl))
		if len(head) > m[1]-m[0] {
			break
		}
		out = out[:m[0]] + head + out[m[1]:closeBr] + ")" + out[closeBr+1:j] + " " + out[j+1:]
	}
	return out
}

func isTypeContinuation(w string) bool {
	switch strings.ToLower(w) {
	case "varying", "precision", "with", "without", "time", "zone":
		return true
	}
	return false
}

// ---- CREATE UNIQUE INDEX ------------------------------------------------

func (b *schemaBuilder) createUniqueIndex(p *ddlParser) {
	p.accept("concurrently")
	p.accept("if", "not", "exists")
	name := ""
	if !p.peek().is("on") && !p.peek().is("using") {
		name, _ = p.name()
	}
	if p.accept("using") {
		p.i++
	}
	if !p.accept("on") {
		return
	}
	p.accept("only")
	table, ok := p.name()
	if !ok {
		return
	}
	td := b.tables[strings.ToLower(table)]
	if td == nil {
		return
	}
	if p.accept("using") {
		p.i++
	}
	if !p.peek().isPunct("(") {
		return
	}
	close := matchParen(p.toks, p.i)
	if close < 0 {
		return
	}
	cols, ok := keyColumns(p.toks[p.i+1 : close])
	if !ok {
		return
	}
	for _, t := range p.toks[close+1:] {
		if t.is("where") {
			return // partial index: not a key of the whole table
		}
	}
	b.addKey(td, name, cols, false)
}

// ---- ALTER TABLE ----------------------------------------------------------

func (b *schemaBuilder) alter(p *ddlParser) error {
	p.accept("alter")
	p.accept("online")
	p.accept("ignore")
	if !p.accept("table") {
		return nil // ALTER INDEX, ALTER VIEW, …
	}
	ifExists := p.accept("if", "exists")
	p.accept("only")
	start := p.peek().pos
	name, ok := p.name()
	if !ok {
		return p.errHere("ALTER TABLE: expected a table name")
	}
	if p.peek().isPunct("*") {
		p.i++
	}
	key := strings.ToLower(name)
	td := b.tables[key]
	if td == nil {
		if ifExists {
			return nil
		}
		td = &tableDef{name: name}
		b.tables[key] = td
	}
	if p.eof() {
		return p.ctx.errAt(start, "ALTER TABLE %s: no action", name)
	}
	var pending []pendingCheck
	for _, action := range splitCommas(p.toks[p.i:]) {
		if len(action) == 0 {
			return p.ctx.errAt(start, "ALTER TABLE %s: empty action", name)
		}
		// td stays valid when an action renames the table.
		if err := b.alterAction(p.ctx, td, action, &pending); err != nil {
			return err
		}
	}
	return b.addChecks(p.ctx, td, pending)
}

func (b *schemaBuilder) alterAction(ctx *stmtCtx, td *tableDef, action []tok, pending *[]pendingCheck) error {
	p := &ddlParser{ctx: ctx, toks: action}
	at := p.peek()
	switch {
	case p.accept("add"):
		isColumn := p.accept("column")
		p.accept("if", "not", "exists")
		if p.eof() {
			return ctx.errAt(at.pos, "ALTER TABLE %s: ADD what?", td.name)
		}
		nt := p.peek()
		if !isColumn && nt.kind == tWord && (isTableConstraintWord(nt.val) || nt.is("exclude")) {
			return b.tableConstraint(ctx, td, action[p.i:], pending)
		}
		if nt.isPunct("(") { // MySQL: ADD (col def, col def)
			close := matchParen(action, p.i)
			if close < 0 {
				return ctx.errAt(nt.pos, "ALTER TABLE %s: unbalanced parentheses", td.name)
			}
			for _, el := range splitCommas(action[p.i+1 : close]) {
				if len(el) == 0 {
					return ctx.errAt(nt.pos, "ALTER TABLE %s: empty column definition", td.name)
				}
				if err := b.element(ctx, td, el, pending); err != nil {
					return err
				}
			}
			return nil
		}
		if i := td.col(nt.val); i >= 0 {
			return b.columnDef(ctx, td, action[p.i:], pending, i)
		}
		return b.columnDef(ctx, td, action[p.i:], pending, -1)
	case p.accept("drop"):
		switch {
		case p.accept("constraint"), p.accept("check"):
			p.accept("if", "exists")
			if n, ok := p.name(); ok {
				td.dropNamed(n, true)
			}
		case p.accept("primary", "key"):
			for k := 0; k < len(td.keys); k++ {
				if td.keys[k].primary {
					td.keys = append(td.keys[:k], td.keys[k+1:]...)
					k--
				}
			}
		case p.accept("index"), p.accept("key"):
			p.accept("if", "exists")
			if n, ok := p.name(); ok {
				td.dropNamed(n, false)
			}
		case p.accept("foreign"), p.accept("partition"), p.accept("trigger"),
			p.accept("default"), p.accept("rule"), p.accept("system"), p.accept("period"):
		default:
			p.accept("column")
			p.accept("if", "exists")
			if n, ok := p.name(); ok {
				td.dropColumn(n)
			}
		}
	case p.accept("alter"), p.accept("modify"), p.accept("change"):
		verb := strings.ToLower(at.val)
		if p.peek().is("constraint") || p.peek().is("index") || p.peek().is("check") {
			return nil
		}
		p.accept("column")
		p.accept("if", "exists")
		colStart := p.i
		n, ok := p.name()
		if !ok {
			return ctx.errAt(at.pos, "ALTER TABLE %s: %s of what column?", td.name, strings.ToUpper(verb))
		}
		i := td.col(n)
		switch verb {
		case "modify":
			return b.columnDef(ctx, td, action[colStart:], pending, i)
		case "change":
			if p.eof() {
				return ctx.errAt(at.pos, "ALTER TABLE %s: CHANGE %s: missing new definition", td.name, n)
			}
			newName := p.peek().val
			if i >= 0 && !strings.EqualFold(newName, n) {
				td.renameColumn(n, newName)
			}
			return b.columnDef(ctx, td, action[p.i:], pending, td.col(newName))
		}
		if i < 0 {
			return nil
		}
		switch {
		case p.accept("set", "not", "null"):
			td.cols[i].NotNull = true
		case p.accept("drop", "not", "null"):
			td.cols[i].NotNull = false
		case p.accept("set", "data", "type"), p.accept("type"):
			s := p.i
			for !p.eof() && !p.peek().is("using") && !p.peek().is("collate") {
				p.i++
			}
			if p.i > s {
				td.cols[i].Type = strings.Join(strings.Fields(strings.ToLower(ctx.text[action[s].pos:action[p.i-1].end])), " ")
			}
		case p.accept("add", "generated"):
			td.cols[i].NotNull = true
			td.cols[i].HasDefault = true
			for !p.eof() && !p.peek().is("identity") {
				p.i++
			}
			if p.accept("identity") {
				td.cols[i].AutoIncrement = identityFromOne(p.toks, p.i)
			}
		case p.accept("set", "default"):
			c := &td.cols[i]
			c.HasDefault, c.Default, _ = defaultValue(p.toks, p.i, c.Type)
			c.AutoIncrement = false
		case p.accept("drop", "default"), p.accept("drop", "identity"), p.accept("drop", "expression"):
			c := &td.cols[i]
			c.HasDefault, c.Default, c.AutoIncrement = false, nil, false
		default:
			// Identity options (RESTART, SET START/INCREMENT/MINVALUE, …)
			// may let the sequence give values below 1.
			for _, t := range p.toks[p.i:] {
				if t.is("restart") || t.is("start") || t.is("increment") || t.is("minvalue") ||
					t.is("maxvalue") || t.is("cycle") {
					td.cols[i].AutoIncrement = false
				}
			}
		}
	case p.accept("rename"):
		switch {
		case p.accept("column"):
			old, ok1 := p.name()
			p.accept("to")
			nw, ok2 := p.name()
			if !ok1 || !ok2 {
				return ctx.errAt(at.pos, "ALTER TABLE %s: RENAME COLUMN: expected old TO new", td.name)
			}
			td.renameColumn(old, nw)
		case p.accept("constraint"), p.accept("index"), p.accept("key"):
			old, ok1 := p.name()
			p.accept("to")
			nw, ok2 := p.name()
			if ok1 && ok2 {
				td.renameNamed(old, nw)
			}
		case p.accept("to"), p.accept("as"):
			nw, ok := p.name()
			if !ok {
				return ctx.errAt(at.pos, "ALTER TABLE %s: RENAME TO what?", td.name)
			}
			b.renameTable(td.name, nw)
		default:
			old, ok1 := p.name()
			if ok1 && p.accept("to") { // Postgres RENAME col TO new
				nw, ok2 := p.name()
				if !ok2 {
					return ctx.errAt(at.pos, "ALTER TABLE %s: RENAME %s TO what?", td.name, old)
				}
				td.renameColumn(old, nw)
			} else if ok1 { // MySQL RENAME new
				b.renameTable(td.name, old)
			}
		}
	}
	return nil
}

// dropNamed removes the key or (if checks) check with the given name.
func (td *tableDef) dropNamed(name string, checks bool) {
	n := strings.ToLower(name)
	for k := 0; k < len(td.keys); k++ {
		if rules.ContainsFold(td.keys[k].names, n) {
			td.keys = append(td.keys[:k], td.keys[k+1:]...)
			k--
		}
	}
	if !checks {
		return
	}
	for k := 0; k < len(td.checks); k++ {
		if rules.ContainsFold(td.checks[k].names, n) {
			td.checks = append(td.checks[:k], td.checks[k+1:]...)
			k--
		}
	}
}

func (td *tableDef) renameNamed(old, nw string) {
	o := strings.ToLower(old)
	for k := range td.keys {
		if rules.ContainsFold(td.keys[k].names, o) {
			td.keys[k].names = append(td.keys[k].names, strings.ToLower(nw))
		}
	}
	for k := range td.checks {
		if rules.ContainsFold(td.checks[k].names, o) {
			td.checks[k].names = append(td.checks[k].names, strings.ToLower(nw))
			if strings.EqualFold(td.checks[k].c.Name, old) {
				td.checks[k].c.Name = nw
			}
		}
	}
}

// dropColumn removes a column and the keys and checks that use it.
func (td *tableDef) dropColumn(name string) {
	i := td.col(name)
	if i < 0 {
		return
	}
	td.cols = append(td.cols[:i], td.cols[i+1:]...)
	for k := 0; k < len(td.keys); k++ {
		if rules.ContainsFold(td.keys[k].cols, name) {
			td.keys = append(td.keys[:k], td.keys[k+1:]...)
			k--
		}
	}
	for k := 0; k < len(td.checks); k++ {
		uses := false
		rules.Visit(td.checks[k].c.Expr, func(e sqlir.Expr) {
			if c, ok := e.(*sqlir.ColRef); ok && strings.EqualFold(c.Name, name) {
				uses = true
			}
		})
		if uses {
			td.checks = append(td.checks[:k], td.checks[k+1:]...)
			k--
		}
	}
}

// renameColumn renames a column in the column list, keys and checks
// (whose Text is then re-printed from the expression).
func (td *tableDef) renameColumn(old, nw string) {
	if i := td.col(old); i >= 0 {
		td.cols[i].Name = nw
	}
	for k := range td.keys {
		for j, c := range td.keys[k].cols {
			if strings.EqualFold(c, old) {
				td.keys[k].cols[j] = nw
			}
		}
	}
	for k := range td.checks {
		changed := false
		e := rules.Map(td.checks[k].c.Expr, func(x sqlir.Expr) sqlir.Expr {
			if c, ok := x.(*sqlir.ColRef); ok && strings.EqualFold(c.Name, old) {
				changed = true
				return &sqlir.ColRef{Table: c.Table, Name: nw}
			}
			return x
		})
		if changed {
			td.checks[k].c.Expr = e
			td.checks[k].c.Text = rules.Format(e)
		}
	}
}

// renameTable renames a table and the qualifiers in its checks.
func (b *schemaBuilder) renameTable(old, nw string) {
	td := b.tables[strings.ToLower(old)]
	if td == nil {
		return
	}
	delete(b.tables, strings.ToLower(old))
	td.name = nw
	for k := range td.checks {
		td.checks[k].c.Table = nw
		td.checks[k].c.Expr = renameTable(td.checks[k].c.Expr, old, nw)
	}
	b.tables[strings.ToLower(nw)] = td
}

func renameTable(e sqlir.Expr, old, nw string) sqlir.Expr {
	return rules.Map(e, func(x sqlir.Expr) sqlir.Expr {
		if c, ok := x.(*sqlir.ColRef); ok && strings.EqualFold(c.Table, old) {
			return &sqlir.ColRef{Table: nw, Name: c.Name}
		}
		return x
	})
}

// ---- DROP / RENAME TABLE ----------------------------------------------------

func (b *schemaBuilder) drop(p *ddlParser) {
	p.accept("drop")
	p.accept("temporary")
	switch {
	case p.accept("table"):
		p.accept("if", "exists")
		for {
			n, ok := p.name()
			if !ok {
				return
			}
			delete(b.tables, strings.ToLower(n))
			if !p.peek().isPunct(",") {
				return
			}
			p.i++
		}
	case p.accept("index"):
		p.accept("concurrently")
		p.accept("if", "exists")
		n, ok := p.name()
		if !ok {
			return
		}
		if p.accept("on") {
			if t, ok := p.name(); ok {
				if td := b.tables[strings.ToLower(t)]; td != nil {
					td.dropNamed(n, false)
				}
			}
			return
		}
		for _, td := range b.tables {
			td.dropNamed(n, false)
		}
	}
}

// renameTables handles MySQL's RENAME TABLE a TO b [, c TO d].
func (b *schemaBuilder) renameTables(p *ddlParser) {
	p.accept("rename")
	if !p.accept("table") && !p.accept("tables") {
		return
	}
	for {
		old, ok := p.name()
		if !ok || !p.accept("to") {
			return
		}
		nw, ok := p.name()
		if !ok {
			return
		}
		b.renameTable(old, nw)
		if !p.peek().isPunct(",") {
			return
		}
		p.i++
	}
}

// ---- column defaults --------------------------------------------------------

// isDefaultStop reports words that end a DEFAULT expression: the start of
// the next column attribute.
func isDefaultStop(w string) bool {
	switch strings.ToLower(w) {
	case "not", "null", "primary", "unique", "check", "references", "constraint",
		"collate", "on", "comment", "generated", "auto_increment", "autoincrement",
		"identity", "visible", "invisible", "storage", "compression", "column_format",
		"engine_attribute", "secondary_engine_attribute", "key":
		return true
	}
	return false
}

// defaultValue reads the expression of a DEFAULT clause starting at
// toks[i] for a column of type colType. It returns whether the column
// has a default (DEFAULT NULL is none), the default when it is a constant
// the row model understands (see constDefault), and the index after the
// expression.
func defaultValue(toks []tok, i int, colType string) (has bool, val sqlir.Expr, next int) {
	end, depth := i, 0
	for end < len(toks) {
		t := toks[end]
		if depth == 0 && end > i && t.kind == tWord && isDefaultStop(t.val) {
			break
		}
		switch {
		case t.isPunct("(") || t.isPunct("["):
			depth++
		case t.isPunct(")") || t.isPunct("]"):
			depth--
		}
		end++
	}
	expr := stripDefault(toks[i:end])
	if len(expr) == 0 {
		return false, nil, end
	}
	if len(expr) == 1 && expr[0].is("null") {
		return false, nil, end
	}
	return true, constDefault(expr, colType), end
}

// stripDefault removes enclosing parentheses and a trailing ::type cast
// from a DEFAULT expression.
func stripDefault(expr []tok) []tok {
	for {
		if len(expr) >= 2 && expr[0].isPunct("(") && matchParen(expr, 0) == len(expr)-1 {
			expr = expr[1 : len(expr)-1]
			continue
		}
		depth, cast := 0, -1
		for k, t := range expr {
			switch {
			case t.isPunct("(") || t.isPunct("["):
				depth++
			case t.isPunct(")") || t.isPunct("]"):
				depth--
			case t.isPunct("::") && depth == 0 && cast < 0:
				cast = k
			}
		}
		if cast <= 0 {
			return expr
		}
		expr = expr[:cast]
	}
}

// typeClass says how a DEFAULT literal of a column of type t is read:
// "num" (integer, decimal, floating-point), "bool", "text" (character
// types and MySQL ENUM) or "" (others: dates, JSON, user types, arrays…,
// whose defaults the row model leaves arbitrary).
func typeClass(t string) string {
	base := strings.ToLower(strings.TrimSpace(t))
	if k := strings.IndexAny(base, " ("); k >= 0 {
		base = base[:k]
	}
	switch base {
	case "int", "integer", "smallint", "bigint", "tinyint", "mediumint", "int2", "int4", "int8",
		"serial", "bigserial", "smallserial", "serial2", "serial4", "serial8",
		"decimal", "numeric", "dec", "fixed", "real", "float", "float4", "float8", "double", "number":
		return "num"
	case "bool", "boolean":
		return "bool"
	case "char", "character", "varchar", "nchar", "nvarchar", "text", "tinytext", "mediumtext",
		"longtext", "citext", "bpchar", "enum", "string", "clob":
		if strings.HasSuffix(strings.TrimSpace(t), "]") {
			return "" // an array
		}
		return "text"
	}
	return ""
}

// constDefault returns the value of a constant DEFAULT expression (without
// parentheses and cast) for a column of type colType: a number for numeric
// columns (also written as a string, '5'), TRUE/FALSE, a string for
// character columns. nil for anything else (now(), nextval(…), …).
func constDefault(expr []tok, colType string) sqlir.Expr {
	class := typeClass(colType)
	neg := false
	if len(expr) == 2 && (expr[0].isPunct("-") || expr[0].isPunct("+")) && expr[1].kind == tNum {
		neg = expr[0].isPunct("-")
		expr = expr[1:]
	}
	if len(expr) != 1 {
		return nil
	}
	t := expr[0]
	num := func(s string) sqlir.Expr {
		s = strings.TrimSpace(s)
		r, ok := new(big.Rat).SetString(s)
		if !ok || s == "" {
			return nil
		}
		if neg {
			r.Neg(r)
		}
		return &sqlir.Num{Val: r, IsInt: r.IsInt() && !strings.ContainsAny(s, ".eE")}
	}
	switch {
	case t.kind == tNum && (class == "num" || class == "bool"):
		return num(t.val)
	case t.kind == tString && !neg:
		switch class {
		case "num":
			return num(t.val)
		case "text":
			return &sqlir.Str{Val: t.val}
		case "bool":
			switch strings.ToLower(strings.TrimSpace(t.val)) {
			case "t", "true", "1":
				return &sqlir.BoolLit{Val: true}
			case "f", "false", "0":
				return &sqlir.BoolLit{Val: false}
			}
		}
	case t.kind == tWord && (class == "num" || class == "bool"):
		switch {
		case t.is("true"):
			return &sqlir.BoolLit{Val: true}
		case t.is("false"):
			return &sqlir.BoolLit{Val: false}
		}
	}
	return nil
}

// identityFromOne reports whether the sequence of an identity column,
// whose options (if any) start at toks[i] in parentheses, gives values of
// at least 1: no options, or options with no negative number or zero
// (START WITH 0, MINVALUE -5, INCREMENT BY -1 and IDENTITY(0,1) may give
// smaller values).
func identityFromOne(toks []tok, i int) bool {
	if i >= len(toks) || !toks[i].isPunct("(") {
		return true
	}
	close := matchParen(toks, i)
	if close < 0 {
		return false
	}
	for _, t := range toks[i+1 : close] {
		if t.isPunct("-") {
			return false
		}
		if t.kind == tNum {
			r, ok := new(big.Rat).SetString(t.val)
			if !ok || r.Cmp(big.NewRat(1, 1)) < 0 {
				return false
			}
		}
	}
	return true
}

// generatedExpr reads, after GENERATED or AS of a column definition, the
// rest of "[ALWAYS | BY DEFAULT] AS (expr)" of a generated column and
// returns expr as written; ok is false for an identity column.
func generatedExpr(p *ddlParser) (string, bool) {
	i := p.i
	at := func(w string) bool { return i < len(p.toks) && p.toks[i].is(w) }
	if at("always") {
		i++
	} else if at("by") {
		i += 2 // BY DEFAULT
	}
	if at("as") {
		i++
	}
	if i >= len(p.toks) || !p.toks[i].isPunct("(") {
		return "", false
	}
	close := matchParen(p.toks, i)
	if close < 0 {
		return "", false
	}
	expr := strings.TrimSpace(p.ctx.text[p.toks[i].end:p.toks[close].pos])
	p.i = close + 1
	return expr, true
}

// parseGenerated parses the expression of a generated column of table
// (nil when neither grammar reads it).
func parseGenerated(expr, table string) sqlir.Expr {
	text := "(" + expr + ") = 0"
	c, err := mysql.ParseConstraint(text, table)
	if err != nil {
		if c, err = postgres.ParseConstraint(text, table); err != nil {
			return nil
		}
	}
	if b, ok := c.Expr.(*sqlir.Binary); ok && b.Op == "=" {
		return b.X
	}
	return nil
}
