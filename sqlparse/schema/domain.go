package schema

import (
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/postgres"
)

// PostgreSQL domains: CREATE DOMAIN name [AS] type [DEFAULT …] [NOT NULL]
// [[CONSTRAINT c] CHECK (…)]…. PostgreSQL checks a domain's constraints
// on every value stored in a column of that type, so such a column is
// read as one of the base type with the domain's NOT NULL, DEFAULT and
// CHECKs, VALUE in a CHECK standing for the column.

// domainDef is one CREATE DOMAIN.
type domainDef struct {
	name, baseType      string
	notNull, hasDefault bool
	checks              []domainCheck
}

// domainCheck is one CHECK of a domain: its name (PostgreSQL's
// "<domain>_check" when unnamed), its text, and the offsets in text of
// the words VALUE.
type domainCheck struct {
	name   string
	text   string
	values []int
}

// createDomain records the CREATE DOMAIN at p (after DOMAIN).
func (b *schemaBuilder) createDomain(p *ddlParser) error {
	name, ok := p.name()
	if !ok {
		b.warnings = append(b.warnings, p.errHere("CREATE DOMAIN: expected a domain name, skipped").Error())
		return nil
	}
	p.accept("as")
	d := &domainDef{name: strings.ToLower(name)}
	start := p.i
	for !p.eof() && !isDomainStop(p.peek()) {
		p.skipParens()
		if !p.eof() && !isDomainStop(p.peek()) {
			p.i++
		}
	}
	if p.i > start {
		d.baseType = strings.Join(strings.Fields(strings.ToLower(p.ctx.text[p.toks[start].pos:p.toks[p.i-1].end])), " ")
	}
	cname := ""
	for !p.eof() {
		switch {
		case p.accept("not", "null"):
			d.notNull = true
		case p.accept("default"):
			d.hasDefault = true
		case p.accept("constraint"):
			cname, _ = p.name()
		case p.accept("check"):
			if c, ok := domainCheckAt(p, d.name, cname); ok {
				d.checks = append(d.checks, c)
			}
			cname = ""
		default:
			p.i++
		}
	}
	b.domains[d.name] = d
	return nil
}

// isDomainStop reports a word that ends a domain's type.
func isDomainStop(t tok) bool {
	return t.is("not") || t.is("null") || t.is("default") || t.is("constraint") || t.is("check") || t.is("collate")
}

// domainCheckAt reads the parenthesised condition of a domain's CHECK at
// p.
func domainCheckAt(p *ddlParser, domain, name string) (domainCheck, bool) {
	if !p.peek().isPunct("(") {
		return domainCheck{}, false
	}
	open := p.i
	close := matchParen(p.toks, open)
	if close < 0 {
		return domainCheck{}, false
	}
	base := p.toks[open].end
	c := domainCheck{name: name, text: p.ctx.text[base:p.toks[close].pos]}
	if c.name == "" {
		c.name = domain + "_check"
	}
	for _, t := range p.toks[open+1 : close] {
		if t.kind == tWord && t.is("value") {
			c.values = append(c.values, t.pos-base)
		}
	}
	p.i = close + 1
	return c, true
}

// applyDomain gives column col of td, when its type is a domain, the
// domain's base type, NOT NULL, DEFAULT and CHECKs.
func (b *schemaBuilder) applyDomain(ctx *stmtCtx, td *tableDef, col *sqlir.Column, pos int) {
	d := b.domains[domainName(col.Type)]
	if d == nil {
		return
	}
	if d.baseType != "" {
		col.Type = d.baseType
	}
	if d.notNull {
		col.NotNull, col.NotNullByKey = true, false
	}
	if d.hasDefault && !col.HasDefault {
		col.HasDefault = true // (its value: not evaluated)
	}
	for _, dc := range d.checks {
		text := dc.forColumn(col.Name)
		c, err := postgres.ParseConstraint(text, td.name)
		if err != nil {
			b.warnings = append(b.warnings, ctx.errAt(pos, "table %s: CHECK (%s) of domain %s on column %s skipped: %v",
				td.name, strings.Join(strings.Fields(dc.text), " "), d.name, col.Name, err).Error())
			continue
		}
		c.Text, c.Table, c.Name = text, td.name, dc.name
		td.checks = append(td.checks, checkDef{names: []string{strings.ToLower(dc.name)}, c: *c})
	}
}

// domainName is the domain a column type names (its last part, unquoted,
// lower case).
func domainName(typ string) string {
	if i := strings.LastIndex(typ, "."); i >= 0 {
		typ = typ[i+1:]
	}
	return strings.ToLower(strings.Trim(typ, `"`))
}

// forColumn returns the CHECK's text with VALUE replaced by column col.
func (dc domainCheck) forColumn(col string) string {
	var sb strings.Builder
	last := 0
	for _, at := range dc.values {
		sb.WriteString(dc.text[last:at])
		sb.WriteString(col)
		last = at + len("value")
	}
	sb.WriteString(dc.text[last:])
	return strings.TrimSpace(sb.String())
}
