package schema

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// fkDef is a foreign key of a table with the lower-cased names that DROP
// can use: the declared name, else the names Postgres
// (<table>_<cols>_fkey) and MySQL (<table>_ibfk_<n>) give it.
type fkDef struct {
	names []string
	fk    sqlir.ForeignKey
}

// addForeignKey records fk on td under name (or the engines' default
// names when name is "").
func (td *tableDef) addForeignKey(name string, fk sqlir.ForeignKey) {
	fk.Name = name
	names := nameList(name)
	if name == "" {
		names = append(names,
			strings.ToLower(td.name+"_"+strings.Join(fk.Columns, "_")+"_fkey"),
			strings.ToLower(fmt.Sprintf("%s_ibfk_%d", td.name, len(td.fks)+1)))
	}
	td.fks = append(td.fks, fkDef{names: names, fk: fk})
}

// foreignKey reads a table constraint after FOREIGN: "KEY [index] (cols)
// REFERENCES parent [(cols)] [options]". ok is false when it is not in
// that form.
func (p *ddlParser) foreignKey() (fk sqlir.ForeignKey, ok bool) {
	p.accept("key")
	if p.peek().isIdent() {
		p.i++ // MySQL: the name of the index that supports the key
	}
	if !p.peek().isPunct("(") {
		return fk, false
	}
	close := matchParen(p.toks, p.i)
	if close < 0 {
		return fk, false
	}
	cols, ok := keyColumns(p.toks[p.i+1 : close])
	if !ok {
		return fk, false
	}
	p.i = close + 1
	fk.Columns = cols
	if !p.accept("references") || !p.references(&fk) {
		return fk, false
	}
	return fk, true
}

// references reads what follows REFERENCES: the parent table, its columns
// and the options (MATCH …, ON DELETE/UPDATE action, [NOT] DEFERRABLE,
// INITIALLY …). It stops at the first word that is not one of them (a
// column's NOT NULL, DEFAULT, …).
func (p *ddlParser) references(fk *sqlir.ForeignKey) bool {
	parent, ok := p.name()
	if !ok {
		return false
	}
	fk.RefTable = parent
	if p.peek().isPunct("(") {
		close := matchParen(p.toks, p.i)
		if close < 0 {
			return false
		}
		cols, ok := keyColumns(p.toks[p.i+1 : close])
		if !ok {
			return false
		}
		fk.RefColumns = cols
		p.i = close + 1
	}
	for {
		switch {
		case p.accept("match"), p.accept("initially"):
			p.i++ // FULL | PARTIAL | SIMPLE, DEFERRED | IMMEDIATE
		case p.accept("on", "delete"):
			fk.OnDelete = p.fkAction()
		case p.accept("on", "update"):
			fk.OnUpdate = p.fkAction()
		case p.accept("deferrable"):
			fk.Deferrable = true
		case p.accept("not", "deferrable"), p.accept("enforced"), p.accept("not", "enforced"):
		default:
			return true
		}
	}
}

// fkAction reads a referential action; one it does not know is NO ACTION
// and is left for the caller.
func (p *ddlParser) fkAction() sqlir.FKAction {
	switch {
	case p.accept("cascade"):
		return sqlir.FKCascade
	case p.accept("restrict"):
		return sqlir.FKRestrict
	case p.accept("set", "null"):
		p.skipParens() // Postgres 15: SET NULL (cols)
		return sqlir.FKSetNull
	case p.accept("set", "default"):
		p.skipParens()
		return sqlir.FKSetDefault
	}
	p.accept("no", "action")
	return sqlir.FKNoAction
}

// skipParens skips a parenthesised group if one comes next.
func (p *ddlParser) skipParens() {
	if p.peek().isPunct("(") {
		if close := matchParen(p.toks, p.i); close >= 0 {
			p.i = close + 1
		}
	}
}

// dropForeignKey removes the foreign key with the given name (MySQL's
// DROP FOREIGN KEY, and DROP CONSTRAINT).
func (td *tableDef) dropForeignKey(name string) {
	n := strings.ToLower(name)
	td.fks = slices.DeleteFunc(td.fks, func(d fkDef) bool { return rules.ContainsFold(d.names, n) })
}

// dropForeignKeysOn removes the foreign keys that use column col.
func (td *tableDef) dropForeignKeysOn(col string) {
	td.fks = slices.DeleteFunc(td.fks, func(d fkDef) bool { return rules.ContainsFold(d.fk.Columns, col) })
}

// renameParentColumn renames column old of table parent to nw in the
// foreign keys that reference it.
func (b *schemaBuilder) renameParentColumn(parent, old, nw string) {
	for _, td := range b.tables {
		for k := range td.fks {
			fk := &td.fks[k].fk
			if !strings.EqualFold(fk.RefTable, parent) {
				continue
			}
			for j, c := range fk.RefColumns {
				if strings.EqualFold(c, old) {
					fk.RefColumns[j] = nw
				}
			}
		}
	}
}

// renameParent renames table old to nw in the foreign keys that reference
// it.
func (b *schemaBuilder) renameParent(old, nw string) {
	for _, td := range b.tables {
		for k := range td.fks {
			if strings.EqualFold(td.fks[k].fk.RefTable, old) {
				td.fks[k].fk.RefTable = nw
			}
		}
	}
}

// dropReferencesTo removes the foreign keys that reference table parent
// (DROP TABLE … CASCADE drops them).
func (b *schemaBuilder) dropReferencesTo(parent string) {
	for _, td := range b.tables {
		td.fks = slices.DeleteFunc(td.fks, func(d fkDef) bool { return strings.EqualFold(d.fk.RefTable, parent) })
	}
}

// foreignKeys returns copies of td's foreign keys.
func (td *tableDef) foreignKeys() []sqlir.ForeignKey {
	var out []sqlir.ForeignKey
	for _, d := range td.fks {
		fk := d.fk
		fk.Columns = slices.Clone(fk.Columns)
		fk.RefColumns = slices.Clone(fk.RefColumns)
		out = append(out, fk)
	}
	return out
}
