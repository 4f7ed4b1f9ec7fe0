package schema

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/mysql"
	"github.com/dbverify/dbverify/sqlparse/postgres"
)

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

// columnType reads the type after the column name el[0] into col.Type and
// returns the index of the first token after it.
func columnType(ctx *stmtCtx, td *tableDef, el []tok, col *sqlir.Column) (int, error) {
	j := 1
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
				return 0, ctx.errAt(t.pos, "table %s: unbalanced parentheses in column %s", td.name, col.Name)
			}
			j = close + 1
			continue
		}
		j++
	}
	if j > 1 {
		col.Type = strings.Join(strings.Fields(strings.ToLower(ctx.text[el[1].pos:el[j-1].end])), " ")
	}
	return j, nil
}

// columnDef handles "name type [constraints…]"; at >= 0 replaces column
// at (MODIFY/CHANGE), else the column is appended.
func (b *schemaBuilder) columnDef(ctx *stmtCtx, td *tableDef, el []tok, pending *[]pendingCheck, at int) error {
	if !el[0].isIdent() {
		return ctx.errAt(el[0].pos, "table %s: expected a column name, found %q", td.name, el[0].val)
	}
	col := sqlir.Column{Name: el[0].val}
	j, err := columnType(ctx, td, el, &col)
	if err != nil {
		return err
	}
	b.applyDomain(ctx, td, &col, el[0].pos)
	if isSerialType(col.Type) {
		col.NotNull = true
		col.HasDefault, col.AutoIncrement = true, true
	}
	// Column constraints.
	p := &ddlParser{ctx: ctx, toks: el, i: j}
	cname := ""
	var keys []keyDef
	var fks []namedFK
	for !p.eof() {
		t := p.peek()
		switch {
		case p.accept("not", "null"):
			col.NotNull, col.NotNullByKey = true, false
		case p.accept("primary", "key"):
			col.NotNullByKey = col.NotNullByKey || !col.NotNull
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
			notEnforced, next := enforcement(p.toks, close+1)
			*pending = append(*pending, pendingCheck{name: cname, body: p.toks[p.i+1 : close], pos: t.pos,
				col: col.Name, open: p.toks[p.i].pos, end: p.toks[close].pos, notEnforced: notEnforced})
			cname = ""
			p.i = next
		case p.accept("references"):
			fk := sqlir.ForeignKey{Columns: []string{col.Name}, Inline: true}
			start := p.i
			if !p.references(&fk) {
				b.warnings = append(b.warnings, ctx.errAt(t.pos, "table %s: REFERENCES of column %s not understood, skipped", td.name, col.Name).Error())
				break
			}
			if saysNotEnforced(p.toks[start:p.i]) {
				b.warnings = append(b.warnings, notEnforcedFK(ctx, t.pos, td.name, fk))
				cname = ""
				break
			}
			fks = append(fks, namedFK{cname, fk})
			cname = ""
		case p.accept("identity"):
			col.NotNull = true
			col.HasDefault = true
			col.AutoIncrement = identityFromOne(p.toks, p.i)
		case p.accept("default"):
			col.HasDefault, col.Default, p.i = defaultValue(p.toks, p.i, col.Type)
			col.AutoIncrement = false
		case p.accept("collate"):
			col.Collate = collationName(p)
		case p.accept("character", "set"), p.accept("charset"):
			if collationName(p) == "binary" && col.Collate == "" {
				col.Collate = "binary"
			}
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
	for _, f := range fks {
		td.addForeignKey(f.name, f.fk)
	}
	return nil
}

// namedFK is a column's REFERENCES clause and its constraint name.
type namedFK struct {
	name string
	fk   sqlir.ForeignKey
}

func nameList(n string) []string {
	if n == "" {
		return nil
	}
	return []string{strings.ToLower(n)}
}

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
	if b, ok := c.Expr.(*sqlir.Binary); ok && b.Op == sqlir.OpEq {
		return b.X
	}
	return nil
}

// collationName reads the name after COLLATE (or CHARACTER SET), lower
// case without quotes ("" if there is none).
func collationName(p *ddlParser) string {
	if p.peek().isPunct("=") {
		p.i++
	}
	if p.eof() {
		return ""
	}
	t := p.peek()
	if t.kind == tPunct || t.kind == tNum {
		return ""
	}
	p.i++
	return strings.ToLower(t.val)
}
