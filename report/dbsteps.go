package report

import (
	"strconv"
	"strings"
	"time"

	"github.com/dbverify/dbverify/ir"
)

// dbSteps follows the transactions a path opens, so that each SQL step
// can say on which handle it ran: a statement on the pool while a
// transaction of the same request is open runs outside it (an
// independent tester's p24: a sqlc repository verified its debit
// through the pool, `b.q` instead of `qtx`, and read the committed
// balance; the trace showed the two values of "the same row" with
// nothing to say why).
type dbSteps struct {
	// open: the position of the BEGIN of each open transaction, by
	// request and handle.
	open map[dbHandle]string
}

type dbHandle struct {
	request string
	tx      ir.Tx
}

func newDBSteps() *dbSteps { return &dbSteps{open: map[dbHandle]string{}} }

// dbStep completes step, the trace step of path step i, a database call:
// the SQL with its bound values (Step.SQL, Step.Args) and, for a
// statement on the pool while a transaction is open, a note that it runs
// outside it.
func (b *traceBuilder) dbStep(i int, step *Step, d *dbSteps) error {
	info := b.pf.Steps[i].Edge.Stmt.Source()
	site := info.DB
	if site == nil {
		return nil
	}
	switch site.Op {
	case "begin":
		d.open[dbHandle{info.Request, site.Tx}] = step.Position
		return nil
	case "commit", "rollback":
		delete(d.open, dbHandle{info.Request, site.Tx})
		return nil
	}
	args, err := b.boundArgs(i, site.Args)
	if err != nil {
		return err
	}
	step.Args = args
	step.SQL = BindSQL(step.Text, args)
	if site.Tx == 0 {
		step.Note = d.outsideNote(info.Request, step.Text)
	}
	return nil
}

// outsideNote is the note on a statement of request run on the pool:
// "" when no transaction of the request is open.
func (d *dbSteps) outsideNote(request, text string) string {
	begun := ""
	for h, pos := range d.open {
		if h.request == request && h.tx != 0 && (begun == "" || pos < begun) {
			begun = pos
		}
	}
	if begun == "" {
		return ""
	}
	if strings.HasPrefix(strings.ToUpper(strings.TrimSpace(text)), "SELECT") {
		return "runs on the pool, outside the transaction begun at " + begun +
			": it reads the committed state, not that transaction's uncommitted writes"
	}
	return "runs on the pool, outside the transaction begun at " + begun +
		": it commits at once, whatever that transaction does"
}

// boundArgs are the values of a call's placeholder arguments at path
// step i ("" where not known).
func (b *traceBuilder) boundArgs(i int, args []ir.Expr) ([]string, error) {
	if len(args) == 0 {
		return nil, nil
	}
	before := b.pf.Before(i)
	env := func(v *ir.Var) (ir.Value, bool) {
		if s, ok := before[v]; ok {
			return b.m.Value(s)
		}
		if s, ok := b.pf.Init[v]; ok {
			return b.m.Value(s)
		}
		return ir.Value{}, false
	}
	out := make([]string, len(args))
	for k, a := range args {
		if a == nil {
			continue
		}
		if v, ok := a.(*ir.Var); ok {
			s, found := before[v]
			if !found {
				s, found = b.pf.Init[v]
			}
			if !found {
				continue
			}
			str, err := b.value(s)
			if err != nil {
				continue // (a value the model leaves open: shown as the placeholder)
			}
			if ts, ok := timestampOf(v, str); ok {
				str = ts
				b.times = true
			}
			out[k] = str
			continue
		}
		x, err := ir.Eval(a, env)
		if err != nil {
			continue
		}
		out[k] = x.String()
	}
	return out, nil
}

// BindSQL returns the statement text with each placeholder replaced by
// its value, as the database runs it: $n and ?n by args[n-1], ? by the
// next argument, :name and @name by the named parameters in the order of
// their first appearance. A placeholder whose value is not known ("")
// stays; quoted text and -- comments are left alone.
func BindSQL(text string, args []string) string {
	if len(args) == 0 {
		return ""
	}
	var out strings.Builder
	next := 0
	named := map[string]int{}
	value := func(k int) (string, bool) {
		if k < 0 || k >= len(args) || args[k] == "" {
			return "", false
		}
		return sqlLiteral(args[k]), true
	}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := closingQuote(text, i)
			out.WriteString(text[i:j])
			i = j
			continue
		case c == '-' && strings.HasPrefix(text[i:], "--"):
			out.WriteString(text[i:])
			return out.String()
		case c == '$' || c == '?':
			j := i + 1
			for j < len(text) && text[j] >= '0' && text[j] <= '9' {
				j++
			}
			k := next
			if j > i+1 {
				n, _ := strconv.Atoi(text[i+1 : j])
				k = n - 1
			} else if c == '$' {
				break
			} else {
				next++
			}
			if s, ok := value(k); ok {
				out.WriteString(s)
				i = j
				continue
			}
		case (c == ':' || c == '@') && i+1 < len(text) && isNameStart(text[i+1]) && (i == 0 || text[i-1] != ':'):
			j := i + 1
			for j < len(text) && isNameChar(text[j]) {
				j++
			}
			name := text[i+1 : j]
			k, ok := named[name]
			if !ok {
				k = len(named)
				named[name] = k
			}
			if s, ok := value(k); ok {
				out.WriteString(s)
				i = j
				continue
			}
		}
		out.WriteByte(c)
		i++
	}
	return out.String()
}

// closingQuote is the index just past the quoted text opening at i (a
// doubled quote stays inside).
func closingQuote(text string, i int) int {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		if text[j] != q {
			continue
		}
		if j+1 < len(text) && text[j+1] == q {
			j++
			continue
		}
		return j + 1
	}
	return len(text)
}

func isNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isNameChar(c byte) bool { return isNameStart(c) || c >= '0' && c <= '9' }

// sqlLiteral is a trace value as SQL writes it: a Go-quoted string in
// single quotes.
func sqlLiteral(v string) string {
	if s, err := strconv.Unquote(v); err == nil && strings.HasPrefix(v, `"`) {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	if strings.HasPrefix(v, "-") || strings.Contains(v, "/") {
		return "(" + v + ")" // (x - -1 would start a comment)
	}
	return v
}

// DateBase is the date the number 0 stands for where a trace prints the
// model's number for a date or a time as one: the model orders dates and
// times as numbers, n standing for DateBase plus n days.
func DateBase() time.Time { return time.Date(2024, time.January, 1, 0, 0, 0, 0, time.UTC) }

// maxTimeOffset bounds the numbers printed as timestamps: ±300,000 days
// are dates on every engine (as package pipeline's dates).
const maxTimeOffset = 300_000

// timestampOf prints value s of v, a Go time.Time bound to a statement
// (ir.Var.Time), as the engine reads a timestamp, Go-quoted (BindSQL
// writes it as the SQL literal '2024-01-10 00:00:00'); ok is false for
// another variable or a number out of range.
func timestampOf(v *ir.Var, s string) (string, bool) {
	if !v.Time {
		return "", false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < -maxTimeOffset || n > maxTimeOffset {
		return "", false
	}
	return strconv.Quote(DateBase().AddDate(0, 0, int(n)).Format("2006-01-02 15:04:05")), true
}

// IsBoundTime reports whether v is a timestamp as a trace prints a
// time.Time's number (timestampOf: "2024-01-02 00:00:00", Go-quoted).
// It stands for the model's number as a date column's printed value
// does: the same number is the same instant.
func IsBoundTime(v string) bool {
	u, err := strconv.Unquote(v)
	if err != nil || !strings.HasPrefix(v, `"`) {
		return false
	}
	t, err := time.Parse("2006-01-02 15:04:05", u)
	if err != nil || t.Hour() != 0 || t.Minute() != 0 || t.Second() != 0 {
		return false
	}
	n := int64(t.Sub(DateBase()).Hours()) / 24
	return n >= -maxTimeOffset && n <= maxTimeOffset
}

// timesNote explains the timestamps a trace prints for time.Time values.
const timesNote = "a time.Time bound to a statement (and, without a schema, a column that holds one) is printed as a timestamp: the model orders times as numbers, n standing for 2024-01-01 00:00:00 plus n days"
