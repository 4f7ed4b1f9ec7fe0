package schema

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
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
// table PRIMARY KEY / UNIQUE / CHECK / FOREIGN KEY and column REFERENCES,
// named with CONSTRAINT or anonymous, LIKE), CREATE UNIQUE INDEX
// (non-partial, on plain columns), ALTER TABLE (ADD/DROP/ALTER/MODIFY/
// CHANGE/RENAME of columns and constraints, DROP FOREIGN KEY, SET/DROP
// DEFAULT), DROP TABLE, DROP INDEX and RENAME TABLE. Other statements
// are skipped. A CREATE or ALTER TABLE that cannot be understood, or a
// CHECK expression that does not parse, is an error (*Error with
// file and line). CHECK bodies in Postgres-only syntax (~*, IS DISTINCT
// FROM, …) are parsed with the Postgres grammar; one that parses but is no
// row-level constraint is skipped and reported in Schema.Warnings.
// Anonymous checks are named "<table>_check<N>". A CHECK or FOREIGN KEY
// declared NOT ENFORCED (or, for a CHECK, altered so) is left out of the
// table, the engine not keeping it, and named in Schema.Warnings
// (enforced.go).
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
	// notEnforced: declared or altered NOT ENFORCED, at "file:line"
	// (enforced.go).
	notEnforced bool
	at          string
}

type tableDef struct {
	name   string
	cols   []sqlir.Column
	keys   []keyDef
	checks []checkDef
	fks    []fkDef
	anon   int // anonymous checks so far
	// collate is the table's default collation (tableCollation);
	// engine its MySQL storage engine (tableEngine).
	collate, engine string
	// withoutRowid is set for SQLite's CREATE TABLE … WITHOUT ROWID.
	withoutRowid bool
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
	// domains: PostgreSQL's CREATE DOMAIN, by lower-case name (domain.go).
	domains map[string]*domainDef
}

func newSchemaBuilder() *schemaBuilder {
	return &schemaBuilder{tables: map[string]*tableDef{}, views: map[string]*sqlir.View{}, functions: map[string]string{}, domains: map[string]*domainDef{}}
}

func (b *schemaBuilder) schema() *sqlir.Schema {
	s := &sqlir.Schema{Tables: map[string]*sqlir.Table{}, Warnings: append([]string(nil), b.warnings...)}
	for k, td := range b.tables {
		t := &sqlir.Table{Name: td.name, Columns: append([]sqlir.Column(nil), td.cols...), Collate: td.collate, Engine: td.engine}
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
		enforced, _ := td.unenforced()
		for _, cd := range enforced {
			t.Checks = append(t.Checks, cd.c)
		}
		t.ForeignKeys = td.foreignKeys()
		t.RowidAlias = td.rowidAlias()
		if td.withoutRowid {
			for i := range t.Columns {
				t.Columns[i].NotNullByKey = false
			}
		}
		s.Tables[k] = t
	}
	s.Warnings = append(s.Warnings, b.unenforcedWarnings()...)
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

// where is "file:line" (or "line N") of offset pos of the statement.
func (c *stmtCtx) where(pos int) string {
	return strings.TrimSuffix(c.errAt(pos, "").Error(), ": ")
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
			if w == "table" || w == "index" || w == "domain" && words[0] == "create" {
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
		if words[1] == "domain" {
			// (Skipped before domains were read: a warning, not an error.)
			b.warnings = append(b.warnings, ctx.errAt(0, "CREATE DOMAIN skipped: %v", err).Error())
			return nil
		}
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

// rowidAlias returns the column that is SQLite's rowid alias: the only
// column of the PRIMARY KEY, of declared type INTEGER exactly (INT or
// BIGINT are not), in a table not WITHOUT ROWID; "" if none.
func (t *tableDef) rowidAlias() string {
	if t.withoutRowid {
		return ""
	}
	for _, k := range t.keys {
		if !k.primary || len(k.cols) != 1 {
			continue
		}
		if i := t.col(k.cols[0]); i >= 0 && strings.EqualFold(strings.TrimSpace(t.cols[i].Type), "integer") {
			return t.cols[i].Name
		}
	}
	return ""
}
