package rules

import (
	"strings"

	"github.com/dbverify/dbverify/sqlir"
)

// ResolveOrder replaces, in the ORDER BY terms of a SELECT with items,
// an output column's name (an alias) or position (ORDER BY 2) by the
// item's expression: both PostgreSQL and MySQL read a bare name in ORDER
// BY as an output column first. A position out of range, or a term on
// "*", becomes an Unknown.
func ResolveOrder(items []sqlir.SelectItem, terms []sqlir.OrderTerm) []sqlir.OrderTerm {
	for i := range terms {
		o := &terms[i]
		switch e := o.Expr.(type) {
		case *sqlir.Num:
			o.Expr = &sqlir.Unknown{Text: "ORDER BY position"}
			if n := e.Val; e.IsInt && n.IsInt() && n.Num().IsInt64() {
				k := int(n.Num().Int64())
				if k >= 1 && k <= len(items) && !items[k-1].Star {
					o.Expr = items[k-1].Expr
				}
			}
		case *sqlir.ColRef:
			if e.Table != "" {
				continue
			}
			for _, it := range items {
				if it.Alias != "" && strings.EqualFold(it.Alias, e.Name) && !it.Star {
					o.Expr = it.Expr
					break
				}
			}
		}
	}
	return terms
}
