package schema

import (
	"slices"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
)

// alter is ALTER TABLE [IF EXISTS] [ONLY] name action, ….
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

// alterAction applies one comma-separated action of ALTER TABLE td.
func (b *schemaBuilder) alterAction(ctx *stmtCtx, td *tableDef, action []tok, pending *[]pendingCheck) error {
	p := &ddlParser{ctx: ctx, toks: action}
	at := p.peek()
	switch {
	case p.accept("add"):
		return b.alterAdd(p, td, pending)
	case p.accept("drop"):
		alterDrop(p, td)
	case p.accept("alter"), p.accept("modify"), p.accept("change"):
		return b.alterColumn(p, td, strings.ToLower(at.val), pending)
	case p.accept("rename"):
		return b.alterRename(p, td, at)
	case p.accept("validate", "constraint"):
		if n, ok := p.name(); ok {
			td.validateCheck(n)
		}
	}
	return nil
}

// saysNotValid reports whether the ALTER TABLE action says NOT VALID
// outside parentheses: PostgreSQL then checks only the rows written from
// now on, not those the table holds (ADD CONSTRAINT … CHECK (…) NOT VALID).
func saysNotValid(action []tok) bool {
	depth := 0
	for k, t := range action {
		switch {
		case t.isPunct("("):
			depth++
		case t.isPunct(")"):
			depth--
		case depth == 0 && t.is("not") && k+1 < len(action) && action[k+1].is("valid"):
			return true
		}
	}
	return false
}

// alterAdd is ADD [COLUMN] [IF NOT EXISTS] col def | ADD constraint |
// ADD (col def, …) (MySQL).
func (b *schemaBuilder) alterAdd(p *ddlParser, td *tableDef, pending *[]pendingCheck) error {
	ctx, action, at := p.ctx, p.toks, p.toks[0]
	isColumn := p.accept("column")
	p.accept("if", "not", "exists")
	if p.eof() {
		return ctx.errAt(at.pos, "ALTER TABLE %s: ADD what?", td.name)
	}
	nt := p.peek()
	if !isColumn && nt.kind == tWord && (isTableConstraintWord(nt.val) || nt.is("exclude")) {
		n := len(*pending)
		if err := b.tableConstraint(ctx, td, action[p.i:], pending); err != nil {
			return err
		}
		if saysNotValid(action) {
			for i := n; i < len(*pending); i++ {
				(*pending)[i].notValid = true
			}
		}
		return nil
	}
	if !nt.isPunct("(") {
		return b.columnDef(ctx, td, action[p.i:], pending, td.col(nt.val))
	}
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

// alterDrop is DROP CONSTRAINT/CHECK/PRIMARY KEY/INDEX/KEY/FOREIGN KEY
// name or DROP [COLUMN] col.
func alterDrop(p *ddlParser, td *tableDef) {
	switch {
	case p.accept("constraint"), p.accept("check"):
		p.accept("if", "exists")
		if n, ok := p.name(); ok {
			td.dropNamed(n, true)
		}
	case p.accept("primary", "key"):
		td.keys = slices.DeleteFunc(td.keys, func(k keyDef) bool { return k.primary })
	case p.accept("index"), p.accept("key"):
		p.accept("if", "exists")
		if n, ok := p.name(); ok {
			td.dropNamed(n, false)
		}
	case p.accept("foreign", "key"):
		p.accept("if", "exists")
		if n, ok := p.name(); ok {
			td.dropForeignKey(n)
		}
	case p.accept("partition"), p.accept("trigger"), p.accept("default"), p.accept("rule"),
		p.accept("system"), p.accept("period"):
	default:
		p.accept("column")
		p.accept("if", "exists")
		if n, ok := p.name(); ok {
			td.dropColumn(n)
		}
	}
}

// alterColumn is MODIFY [COLUMN] col def, CHANGE [COLUMN] old new def
// (MySQL) or ALTER [COLUMN] col action.
func (b *schemaBuilder) alterColumn(p *ddlParser, td *tableDef, verb string, pending *[]pendingCheck) error {
	ctx, action, at := p.ctx, p.toks, p.toks[0]
	if p.peek().is("constraint") || p.peek().is("index") || p.peek().is("check") {
		alterEnforcement(p, td, ctx.where(at.pos))
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
			b.renameColumn(td, n, newName)
		}
		return b.columnDef(ctx, td, action[p.i:], pending, td.col(newName))
	}
	if i >= 0 {
		alterColumnAction(p, &td.cols[i])
	}
	return nil
}

// alterColumnAction applies what follows ALTER [COLUMN] col to c: SET/DROP
// NOT NULL, [SET DATA] TYPE, ADD GENERATED … AS IDENTITY, SET/DROP
// DEFAULT, DROP IDENTITY/EXPRESSION and identity options.
func alterColumnAction(p *ddlParser, c *sqlir.Column) {
	switch {
	case p.accept("set", "not", "null"):
		c.NotNull, c.NotNullByKey = true, false
	case p.accept("drop", "not", "null"):
		c.NotNull, c.NotNullByKey = false, false
	case p.accept("set", "data", "type"), p.accept("type"):
		s := p.i
		for !p.eof() && !p.peek().is("using") && !p.peek().is("collate") {
			p.i++
		}
		if p.i > s {
			c.Type = strings.Join(strings.Fields(strings.ToLower(p.ctx.text[p.toks[s].pos:p.toks[p.i-1].end])), " ")
		}
	case p.accept("add", "generated"):
		c.NotNull, c.HasDefault = true, true
		for !p.eof() && !p.peek().is("identity") {
			p.i++
		}
		if p.accept("identity") {
			c.AutoIncrement = identityFromOne(p.toks, p.i)
		}
	case p.accept("set", "default"):
		c.HasDefault, c.Default, _ = defaultValue(p.toks, p.i, c.Type)
		c.AutoIncrement = false
	case p.accept("drop", "default"), p.accept("drop", "identity"), p.accept("drop", "expression"):
		c.HasDefault, c.Default, c.AutoIncrement = false, nil, false
	default:
		// Identity options (RESTART, SET START/INCREMENT/MINVALUE, …)
		// may let the sequence give values below 1.
		for _, t := range p.toks[p.i:] {
			if t.is("restart") || t.is("start") || t.is("increment") || t.is("minvalue") ||
				t.is("maxvalue") || t.is("cycle") {
				c.AutoIncrement = false
			}
		}
	}
}

// alterRename is RENAME COLUMN old TO new, RENAME CONSTRAINT/INDEX/KEY old
// TO new, RENAME [TO|AS] table, Postgres RENAME old TO new (a column) and
// MySQL RENAME new (the table).
func (b *schemaBuilder) alterRename(p *ddlParser, td *tableDef, at tok) error {
	ctx := p.ctx
	switch {
	case p.accept("column"):
		old, ok1 := p.name()
		p.accept("to")
		nw, ok2 := p.name()
		if !ok1 || !ok2 {
			return ctx.errAt(at.pos, "ALTER TABLE %s: RENAME COLUMN: expected old TO new", td.name)
		}
		b.renameColumn(td, old, nw)
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
		switch {
		case ok1 && p.accept("to"): // Postgres RENAME col TO new
			nw, ok2 := p.name()
			if !ok2 {
				return ctx.errAt(at.pos, "ALTER TABLE %s: RENAME %s TO what?", td.name, old)
			}
			b.renameColumn(td, old, nw)
		case ok1: // MySQL RENAME new
			b.renameTable(td.name, old)
		}
	}
	return nil
}
