package witness

import (
	"fmt"
	"go/constant"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
	"github.com/dbverify/dbverify/sqlparse/schema"
)

// Column classes: how values are generated and written.
const (
	ClassInt  = "int"
	ClassReal = "real"
	ClassText = "text"
	ClassBool = "bool"
	ClassTime = "time"
)

// Schema is the database a run uses.
type Schema struct {
	// Tables by lower-case name.
	Tables map[string]*sqlir.Table
	// DDL creates the tables.
	DDL string
	// Source says where the schema comes from, for the report.
	Source string
	// qualified: the tables (by lower-case name) the DDL creates under a
	// schema name (CREATE TABLE bank.accounts), as it spells them
	// (qualifiedTables).
	qualified map[string]string
}

// Key is the table's first key (its primary key when it declares one).
func (s *Schema) Key(table string) []string {
	t := s.Tables[strings.ToLower(table)]
	if t == nil || len(t.Keys) == 0 {
		return nil
	}
	return t.Keys[0]
}

// Table returns a table by name, any case.
func (s *Schema) Table(name string) *sqlir.Table { return s.Tables[strings.ToLower(name)] }

// ColumnClass is the class of a column's declared type.
func ColumnClass(typ string) string {
	t := strings.ToLower(typ)
	switch {
	case strings.Contains(t, "bool"):
		return ClassBool
	case strings.Contains(t, "int") || strings.Contains(t, "serial"):
		if strings.HasPrefix(t, "tinyint(1)") {
			return ClassBool
		}
		return ClassInt
	case strings.Contains(t, "num") || strings.Contains(t, "dec") || strings.Contains(t, "real") ||
		strings.Contains(t, "double") || strings.Contains(t, "float") || strings.Contains(t, "money"):
		return ClassReal
	case strings.Contains(t, "time") || strings.Contains(t, "date"):
		return ClassTime
	}
	return ClassText
}

// LoadSchemaFiles reads the DDL at path (a file, or a directory of
// migrations: *.sql in name order, down migrations skipped, goose files
// cut to their Up sections) for execution and parses it.
func LoadSchemaFiles(path string) (*Schema, error) {
	parsed, err := schema.Load(path)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", path, err)
	}
	var files []string
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if st.IsDir() {
		matches, _ := filepath.Glob(filepath.Join(path, "*.sql"))
		for _, m := range matches {
			if strings.Contains(filepath.Base(m), ".down.") {
				continue
			}
			files = append(files, m)
		}
		sort.Strings(files)
	} else {
		files = []string{path}
	}
	var ddl strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		text := strings.TrimSpace(gooseUp(string(data)))
		if text == "" {
			continue
		}
		ddl.WriteString(text)
		if !strings.HasSuffix(text, ";") {
			ddl.WriteString(";")
		}
		ddl.WriteString("\n")
	}
	return &Schema{Tables: parsed.Tables, DDL: ddl.String(), Source: path, qualified: qualifiedTables(ddl.String(), parsed.Tables)}, nil
}

// qualifiedTable is a CREATE TABLE of a name qualified by a schema (or,
// on MySQL, a database): its two parts, each maybe quoted.
var qualifiedTable = regexp.MustCompile("(?i)CREATE\\s+(?:(?:GLOBAL|LOCAL|TEMP|TEMPORARY|UNLOGGED)\\s+)*TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?([\"`]?\\w+[\"`]?)\\.([\"`]?\\w+[\"`]?)")

// qualifiedTables maps each table of tables that ddl creates under a
// schema name to that qualified name ("bank.accounts"). The schema
// parser keeps the bare name, which the program's SQL may also use (its
// search_path finds it); replay's own statements (reset, seed, the
// violation query) need the qualified one: a PostgreSQL schema file with
// CREATE SCHEMA bank; CREATE TABLE bank.accounts … failed the replay's
// reset ("relation \"accounts\" does not exist").
func qualifiedTables(ddl string, tables map[string]*sqlir.Table) map[string]string {
	out := map[string]string{}
	for _, m := range qualifiedTable.FindAllStringSubmatch(ddl, -1) {
		schemaName, table := strings.Trim(m[1], "\"`"), strings.Trim(m[2], "\"`")
		if _, ok := tables[strings.ToLower(table)]; ok {
			out[strings.ToLower(table)] = schemaName + "." + table
		}
	}
	return out
}

// gooseUp keeps the Up sections of a goose migration (all of other files).
func gooseUp(src string) string {
	if !strings.Contains(src, "+goose") && !strings.Contains(src, "+migrate") {
		return src
	}
	var out strings.Builder
	up := false
	for _, line := range strings.Split(src, "\n") {
		l := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(l, "-- +goose Up") || strings.HasPrefix(l, "-- +migrate Up"):
			up = true
			continue
		case strings.HasPrefix(l, "-- +goose Down") || strings.HasPrefix(l, "-- +migrate Down"):
			up = false
			continue
		case strings.HasPrefix(l, "-- +"):
			continue
		}
		if up {
			out.WriteString(line + "\n")
		}
	}
	return out.String()
}

// ProgramSQL is what the program's constants say: the SQL statements it
// may run and its integer constants.
type ProgramSQL struct {
	Statements []sqlir.Statement
	Ints       []int64
	// Strings are the program's string constants and the SQL's string
	// literals, to decode dbverify's string codes.
	Strings []string
}

var namedParam = regexp.MustCompile(`:[A-Za-z_][A-Za-z0-9_]*`)

// CollectSQL parses every constant string of pkgs (loaded with syntax and
// types info) that is a SQL statement, and gathers the integer constants.
func CollectSQL(pkgs []*packages.Package, d sqlparse.Dialect) *ProgramSQL {
	ps := &ProgramSQL{}
	seenS, seenI := map[string]bool{}, map[int64]bool{}
	for _, p := range pkgs {
		if p.TypesInfo == nil {
			continue
		}
		for _, tv := range p.TypesInfo.Types {
			if tv.Value == nil {
				continue
			}
			switch tv.Value.Kind() {
			case constant.Int:
				if v, ok := constant.Int64Val(tv.Value); ok && !seenI[v] && v > -1e9 && v < 1e9 {
					seenI[v] = true
					ps.Ints = append(ps.Ints, v)
				}
			case constant.String:
				s := constant.StringVal(tv.Value)
				if seenS[s] {
					continue
				}
				seenS[s] = true
				ps.Strings = append(ps.Strings, s)
				if !looksLikeSQL(s) {
					continue
				}
				q := s
				if d != sqlparse.Postgres {
					q = namedParam.ReplaceAllString(q, "?")
				}
				if st, err := sqlparse.Parse(d, q); err == nil && st != nil {
					ps.Statements = append(ps.Statements, st)
					ps.Strings = append(ps.Strings, sqlStrings(st)...)
				}
			}
		}
	}
	sort.Slice(ps.Ints, func(i, j int) bool { return ps.Ints[i] < ps.Ints[j] })
	return ps
}

func looksLikeSQL(s string) bool {
	f := strings.Fields(strings.ToUpper(stripLeadingComments(s)))
	if len(f) < 2 {
		return false
	}
	switch f[0] {
	case "SELECT", "UPDATE", "INSERT", "DELETE", "REPLACE", "WITH":
		return true
	}
	return false
}

// stripLeadingComments drops the "-- …" lines and "/* … */" blocks before
// a statement (sqlc writes "-- name: X :one" first).
func stripLeadingComments(s string) string {
	for {
		t := strings.TrimSpace(s)
		switch {
		case strings.HasPrefix(t, "--"):
			i := strings.IndexByte(t, '\n')
			if i < 0 {
				return ""
			}
			s = t[i+1:]
		case strings.HasPrefix(t, "/*"):
			i := strings.Index(t, "*/")
			if i < 0 {
				return ""
			}
			s = t[i+2:]
		default:
			return t
		}
	}
}
