package schema

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/dbverify/dbverify/sqlparse/internal/rules"
	"github.com/dbverify/dbverify/sqlparse/mysql"
	"github.com/dbverify/dbverify/sqlparse/postgres"
)

type pendingCheck struct {
	name string
	body []tok // tokens between the parentheses
	pos  int   // offset of CHECK in the statement
	col  string
	open int // offset of '(' in the statement
	end  int // offset of ')' in the statement
	// notValid: added by ALTER TABLE … NOT VALID (sqlir.Constraint.NotValid).
	notValid bool
	// notEnforced: declared NOT ENFORCED (enforced.go).
	notEnforced bool
}

// anyArrayRE matches "= ANY (ARRAY[" as pg_dump prints IN lists.
var anyArrayRE = regexp.MustCompile(`(?i)(=|<>|!=)(\s*)(any|all)(\s*)\((\s*)array(\s*)\[`)

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
		c.NotValid = pc.notValid
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
		td.checks = append(td.checks, checkDef{names: names, c: *c, notEnforced: pc.notEnforced, at: ctx.where(pc.pos)})
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
