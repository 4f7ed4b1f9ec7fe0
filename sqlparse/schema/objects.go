package schema

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// Schema objects that run code on writes (triggers, rules) or forward
// them (views). The row model does not execute them: it needs to know
// they exist, where, and roughly what they touch.

const nameChars = "[\\w.\"`\\[\\]]+"

var (
	triggerRE = regexp.MustCompile(`(?is)^create\s+(?:or\s+replace\s+)?(?:definer\s*=\s*\S+\s+)?(?:constraint\s+)?trigger\s+(?:if\s+not\s+exists\s+)?(` + nameChars + `).*?\bon\s+(` + nameChars + `)`)
	ruleRE    = regexp.MustCompile(`(?is)^create\s+(?:or\s+replace\s+)?rule\s+(` + nameChars + `)\s+as\s+on\s+\w+\s+to\s+(` + nameChars + `)`)
	viewRE    = regexp.MustCompile(`(?is)^create\s+(?:or\s+replace\s+)?(?:(?:temp|temporary)\s+)?(?:(?:algorithm\s*=\s*\w+|definer\s*=\s*\S+|sql\s+security\s+\w+)\s+)*(?:recursive\s+)?view\s+(?:if\s+not\s+exists\s+)?(` + nameChars + `)`)
	funcRE    = regexp.MustCompile(`(?is)^create\s+(?:or\s+replace\s+)?(?:definer\s*=\s*\S+\s+)?(?:function|procedure)\s+(` + nameChars + `)`)
	executeRE = regexp.MustCompile(`(?is)\bexecute\s+(?:function|procedure)\s+(` + nameChars + `)`)
)

// pendingTrigger is a trigger whose function may be defined later.
type pendingTrigger struct {
	t  sqlir.Trigger
	fn string // lower-case name of the function it executes ("" if inline)
}

// objectName returns the last part of a possibly qualified, quoted name,
// lower-cased.
func objectName(s string) string {
	if i := strings.LastIndex(s, "."); i >= 0 {
		s = s[i+1:]
	}
	return strings.ToLower(strings.Trim(s, "\"`[]"))
}

// object records a CREATE TRIGGER, RULE, VIEW, FUNCTION or PROCEDURE; it
// reports whether the statement was one.
func (b *schemaBuilder) object(ctx *stmtCtx) bool {
	start := rules.SkipSpaceComments(ctx.text, 0)
	text := ctx.text[start:]
	pos := fmt.Sprintf("%s:%d", ctx.file, lineAt(ctx.src, ctx.off+start))
	if ctx.file == "" {
		pos = fmt.Sprintf("line %d", lineAt(ctx.src, ctx.off+start))
	}
	body := strings.ToLower(text)
	switch {
	case triggerRE.MatchString(text):
		m := triggerRE.FindStringSubmatch(text)
		pt := pendingTrigger{t: sqlir.Trigger{Name: objectName(m[1]), Table: objectName(m[2]), Body: body, Resolved: true, Pos: pos}}
		if e := executeRE.FindStringSubmatch(text); e != nil {
			pt.fn = objectName(e[1])
			pt.t.Resolved = false
		}
		b.triggers = append(b.triggers, pt)
	case ruleRE.MatchString(text):
		m := ruleRE.FindStringSubmatch(text)
		b.triggers = append(b.triggers, pendingTrigger{t: sqlir.Trigger{Name: objectName(m[1]), Table: objectName(m[2]), Body: body, Resolved: true, Pos: pos}})
	case viewRE.MatchString(text):
		m := viewRE.FindStringSubmatch(text)
		name := objectName(m[1])
		b.views[name] = &sqlir.View{Name: name, Def: body, Pos: pos}
	case funcRE.MatchString(text):
		m := funcRE.FindStringSubmatch(text)
		b.functions[objectName(m[1])] = body
	default:
		return false
	}
	return true
}

// objects adds the triggers and views to s, each trigger with the body of
// the function it executes when the schema defines it.
func (b *schemaBuilder) objects(s *sqlir.Schema) {
	s.Views = map[string]*sqlir.View{}
	for k, v := range b.views {
		cp := *v
		s.Views[k] = &cp
	}
	for _, pt := range b.triggers {
		t := pt.t
		if pt.fn != "" {
			if fb, ok := b.functions[pt.fn]; ok {
				t.Body += "\n" + fb
				t.Resolved = true
			}
		}
		s.Triggers = append(s.Triggers, t)
	}
}
