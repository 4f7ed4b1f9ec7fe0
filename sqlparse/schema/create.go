package schema

import "strings"

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
	case p.accept("domain"):
		return b.createDomain(p)
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
		td.collate = tableCollation(&ddlParser{ctx: p.ctx, toks: p.toks, i: close + 1})
		td.engine = tableEngine(&ddlParser{ctx: p.ctx, toks: p.toks, i: close + 1})
		for i := close + 1; i+1 < len(p.toks); i++ {
			if p.toks[i].is("without") && p.toks[i+1].is("rowid") {
				td.withoutRowid = true
			}
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
		td.checks = append(td.checks, c)
	}
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
			open: p.toks[p.i].pos, end: p.toks[close].pos, notEnforced: saysNotEnforced(p.toks[close+1:])})
	case p.accept("foreign"):
		fk, ok := p.foreignKey()
		if !ok {
			b.warnings = append(b.warnings, ctx.errAt(at.pos, "table %s: FOREIGN KEY not understood, skipped: %s",
				td.name, strings.Join(strings.Fields(ctx.text[el[0].pos:el[len(el)-1].end]), " ")).Error())
			break
		}
		if saysNotEnforced(el) {
			b.warnings = append(b.warnings, notEnforcedFK(ctx, at.pos, td.name, fk))
			break
		}
		td.addForeignKey(name, fk)
	case p.accept("key"), p.accept("index"), p.accept("fulltext"),
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
				td.cols[i].NotNullByKey = td.cols[i].NotNullByKey || !td.cols[i].NotNull
				td.cols[i].NotNull = true
			}
		}
	} else {
		names = append(names, strings.ToLower(cols[0]),
			strings.ToLower(td.name+"_"+strings.Join(cols, "_")+"_key"))
	}
	td.keys = append(td.keys, keyDef{names: names, cols: cols, primary: primary})
}

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

// tableEngine reads the table options after CREATE TABLE's column list
// for MySQL's "ENGINE[=]name", lower case; "" when none.
func tableEngine(p *ddlParser) string {
	for !p.eof() {
		if p.accept("engine") {
			// (ENGINE [=] name: read as collationName reads a name.)
			return collationName(p)
		}
		p.i++
	}
	return ""
}

// tableCollation reads the table options after CREATE TABLE's column
// list for a default collation (MySQL "[DEFAULT] COLLATE[=]name", or
// "binary" for "[DEFAULT] CHARSET[=]binary"); "" when none.
func tableCollation(p *ddlParser) string {
	out := ""
	for !p.eof() {
		switch {
		case p.accept("collate"):
			out = collationName(p)
		case p.accept("character", "set"), p.accept("charset"):
			if collationName(p) == "binary" && out == "" {
				out = "binary"
			}
		default:
			p.i++
		}
	}
	return out
}
