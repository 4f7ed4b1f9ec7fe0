package postgres

import (
	"errors"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	pg "github.com/pganalyze/pg_query_go/v6"
	pgparser "github.com/pganalyze/pg_query_go/v6/parser"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// Helpers over pg_query parse trees: a generic walker, placeholder
// discovery, deparsing of expressions and error conversion.

// pgVisit calls f on m and every message below it in pre-order (the
// *pg.Node wrappers and the node structs they hold); f returns false to
// skip a message's children.
func pgVisit(m proto.Message, f func(proto.Message) bool) {
	if m == nil {
		return
	}
	r := m.ProtoReflect()
	if !r.IsValid() || !f(m) {
		return
	}
	pgVisitChildren(r, f)
}

// pgVisitChildren is pgVisit for the messages below r, without r itself.
func pgVisitChildren(r protoreflect.Message, f func(proto.Message) bool) {
	r.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Kind() != protoreflect.MessageKind || fd.IsMap() {
			return true
		}
		if fd.IsList() {
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				pgVisit(l.Get(i).Message().Interface(), f)
			}
			return true
		}
		pgVisit(v.Message().Interface(), f)
		return true
	})
}

// pgMaxParam returns the highest $n in m (0 when there is none).
func pgMaxParam(m proto.Message) int {
	n := 0
	pgVisit(m, func(x proto.Message) bool {
		if p, ok := x.(*pg.ParamRef); ok && int(p.Number) > n {
			n = int(p.Number)
		}
		return true
	})
	return n
}

// pgParamsIn returns the distinct parameter indexes ($n is n-1) inside n
// in the order they appear in the query text.
func pgParamsIn(n proto.Message) []int {
	type ref struct{ loc, idx int }
	var refs []ref
	pgVisit(n, func(x proto.Message) bool {
		if p, ok := x.(*pg.ParamRef); ok && p.Number > 0 {
			refs = append(refs, ref{int(p.Location), int(p.Number) - 1})
		}
		return true
	})
	sort.SliceStable(refs, func(i, j int) bool { return refs[i].loc < refs[j].loc })
	var out []int
	seen := map[int]bool{}
	for _, r := range refs {
		if !seen[r.idx] {
			seen[r.idx] = true
			out = append(out, r.idx)
		}
	}
	return out
}

// pgDeparseExpr prints an expression node as Postgres SQL (placeholders
// stay $n), by deparsing "SELECT <expr>"; version is the parse tree's.
func pgDeparseExpr(version int32, n *pg.Node) string {
	if n == nil {
		return "NULL"
	}
	switch x := n.Node.(type) {
	case *pg.Node_SetToDefault:
		return "DEFAULT"
	case *pg.Node_MultiAssignRef, *pg.Node_AStar:
		return "(…)"
	case *pg.Node_CurrentOfExpr:
		return "CURRENT OF " + x.CurrentOfExpr.CursorName
	}
	sel := &pg.SelectStmt{
		TargetList:  []*pg.Node{{Node: &pg.Node_ResTarget{ResTarget: &pg.ResTarget{Val: n}}}},
		Op:          pg.SetOperation_SETOP_NONE,
		LimitOption: pg.LimitOption_LIMIT_OPTION_DEFAULT,
	}
	tree := &pg.ParseResult{Version: version, Stmts: []*pg.RawStmt{{Stmt: &pg.Node{Node: &pg.Node_SelectStmt{SelectStmt: sel}}}}}
	s, err := pg.Deparse(tree)
	if err != nil || !strings.HasPrefix(s, "SELECT ") {
		return "(expression)"
	}
	return strings.TrimPrefix(s, "SELECT ")
}

var (
	pgNearRE = regexp.MustCompile(`(?s)^(.*?) at or near "(.*)"$`)
	pgEndRE  = regexp.MustCompile(`(?s)^(.*?) at end of input$`)
)

// pgParseError converts a pg_query error into a *sqlparse.ParseError whose Offset
// is a byte offset into q (pg_query reports a 1-based character position).
func pgParseError(q string, err error) error {
	var pe *pgparser.Error
	if !errors.As(err, &pe) {
		return err
	}
	msg, near := pe.Message, ""
	if m := pgNearRE.FindStringSubmatch(msg); m != nil {
		msg, near = m[1], m[2]
	} else if m := pgEndRE.FindStringSubmatch(msg); m != nil {
		msg = m[1]
	}
	off := 0
	if pe.Cursorpos > 0 {
		off = charOffset(q, pe.Cursorpos-1)
	}
	return &rules.ParseError{Query: q, Offset: off, Msg: msg, Near: near}
}

// charOffset returns the byte offset of the n-th (0-based) character of s;
// invalid UTF-8 bytes count as one character each.
func charOffset(s string, n int) int {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return i
}

// pgSkipSpace returns the offset of the first byte at or after i that is
// not white space or inside a Postgres comment ("--", nestable "/* */").
func pgSkipSpace(s string, i int) int {
	for i < len(s) {
		switch {
		case rules.IsSpace(s[i]):
			i++
		case strings.HasPrefix(s[i:], "--"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return len(s)
			}
			i += j + 1
		case strings.HasPrefix(s[i:], "/*"):
			depth := 0
			for i < len(s) {
				if strings.HasPrefix(s[i:], "/*") {
					depth++
					i += 2
				} else if strings.HasPrefix(s[i:], "*/") {
					depth--
					i += 2
					if depth == 0 {
						break
					}
				} else {
					i++
				}
			}
		default:
			return i
		}
	}
	return i
}

// pgName returns the last part of a qualified name list (String nodes),
// lower-cased, and whether any qualifier is pg_catalog or absent.
func pgName(names []*pg.Node) (name string, builtin bool) {
	if len(names) == 0 {
		return "", false
	}
	name = strings.ToLower(names[len(names)-1].GetString_().GetSval())
	builtin = len(names) == 1 || len(names) == 2 && strings.EqualFold(names[0].GetString_().GetSval(), "pg_catalog")
	return name, builtin
}
