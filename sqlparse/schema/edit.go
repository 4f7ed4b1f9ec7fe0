package schema

import (
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

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
	td.dropForeignKey(name)
	for k := 0; k < len(td.checks); k++ {
		if rules.ContainsFold(td.checks[k].names, n) {
			td.checks = append(td.checks[:k], td.checks[k+1:]...)
			k--
		}
	}
}

// validateCheck is VALIDATE CONSTRAINT name: PostgreSQL has checked every
// row, so the CHECK holds of the initial rows again.
func (td *tableDef) validateCheck(name string) {
	n := strings.ToLower(name)
	for k := range td.checks {
		if rules.ContainsFold(td.checks[k].names, n) {
			td.checks[k].c.NotValid = false
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
	for k := range td.fks {
		if rules.ContainsFold(td.fks[k].names, o) {
			td.fks[k].names = append(td.fks[k].names, strings.ToLower(nw))
			if strings.EqualFold(td.fks[k].fk.Name, old) {
				td.fks[k].fk.Name = nw
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
	td.dropForeignKeysOn(name)
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

// renameColumn renames column old of td to nw, here and in the foreign
// keys that reference it.
func (b *schemaBuilder) renameColumn(td *tableDef, old, nw string) {
	td.renameColumn(old, nw)
	b.renameParentColumn(td.name, old, nw)
}

// renameColumn renames a column in the column list, keys, foreign keys and
// checks (whose Text is then re-printed from the expression).
func (td *tableDef) renameColumn(old, nw string) {
	if i := td.col(old); i >= 0 {
		td.cols[i].Name = nw
	}
	for k := range td.fks {
		for j, c := range td.fks[k].fk.Columns {
			if strings.EqualFold(c, old) {
				td.fks[k].fk.Columns[j] = nw
			}
		}
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
	b.renameParent(old, nw)
}

func renameTable(e sqlir.Expr, old, nw string) sqlir.Expr {
	return rules.Map(e, func(x sqlir.Expr) sqlir.Expr {
		if c, ok := x.(*sqlir.ColRef); ok && strings.EqualFold(c.Table, old) {
			return &sqlir.ColRef{Table: nw, Name: c.Name}
		}
		return x
	})
}

func (b *schemaBuilder) drop(p *ddlParser) {
	p.accept("drop")
	p.accept("temporary")
	switch {
	case p.accept("table"):
		p.accept("if", "exists")
		var dropped []string
		for {
			n, ok := p.name()
			if !ok {
				break
			}
			delete(b.tables, strings.ToLower(n))
			dropped = append(dropped, n)
			if !p.peek().isPunct(",") {
				break
			}
			p.i++
		}
		if p.accept("cascade") { // Postgres drops the foreign keys that reference them
			for _, n := range dropped {
				b.dropReferencesTo(n)
			}
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
