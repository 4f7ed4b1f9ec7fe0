package spec

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// A Fact is a condition the model assumes on entry: an --assume, or a
// CHECK of the schema that the database enforces. It is a *TableFact or
// a *ParamFact.
type Fact interface {
	String() string
	fact()
}

// A TableFact holds for every row of Table in the initial database.
type TableFact struct {
	// Name is the schema CHECK's name ("" for --assume).
	Name string
	// Text is the condition as written; Expr the condition over the
	// columns of Table.
	Text, Table string
	Expr        sqlir.Expr
}

// A ParamFact holds of the entry's parameters: its bare names are the
// parameters' names.
type ParamFact struct {
	Text string
	Expr sqlir.Expr
}

func (f *TableFact) String() string { return f.Text }
func (f *ParamFact) String() string { return f.Text }
func (*TableFact) fact()            {}
func (*ParamFact) fact()            {}

// ParseFacts parses --assume conditions: one that qualifies its columns
// (accounts.balance >= 0) is a TableFact about that table; one with bare
// names only (amount > 0) is a ParamFact about the entry's parameters.
func ParseFacts(texts []string) ([]Fact, error) {
	var out []Fact
	for _, text := range texts {
		f, err := parseFact(text)
		if err != nil {
			return nil, fmt.Errorf("--assume: %w", err)
		}
		out = append(out, f)
	}
	return out, nil
}

func parseFact(text string) (Fact, error) {
	c, err := sqlparse.ParseConstraint(text, "")
	if err == nil {
		return &TableFact{Text: c.Text, Table: c.Table, Expr: c.Expr}, nil
	}
	// No table named: the parser needs one to resolve bare names, which
	// here name parameters; the name given is not kept.
	c, err = sqlparse.ParseConstraint(text, "parameters")
	if err != nil {
		return nil, err
	}
	return &ParamFact{Text: c.Text, Expr: c.Expr}, nil
}

// TableFacts returns the facts about table (case-insensitive).
func TableFacts(facts []Fact, table string) []*TableFact {
	var out []*TableFact
	for _, f := range facts {
		if tf, ok := f.(*TableFact); ok && strings.EqualFold(tf.Table, table) {
			out = append(out, tf)
		}
	}
	return out
}

// ParamFacts returns the facts about the entry's parameters.
func ParamFacts(facts []Fact) []*ParamFact {
	var out []*ParamFact
	for _, f := range facts {
		if pf, ok := f.(*ParamFact); ok {
			out = append(out, pf)
		}
	}
	return out
}
