package spec

import (
	"fmt"
	"testing"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/schema"
)

// TestNullSafe: a row check over nullable columns holds exactly where SQL
// evaluates its condition to TRUE or NULL (as a CHECK), whatever value the
// model gives a NULL column (it compares values, not NULLs): checked on
// every row over {NULL, 0, 1, 2} and every hidden value behind a NULL.
func TestNullSafe(t *testing.T) {
	s, err := schema.Parse(`CREATE TABLE cards (id BIGINT PRIMARY KEY, withdrawn BIGINT NOT NULL, lim BIGINT, floor_ BIGINT);`)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"cards.withdrawn <= cards.lim",
		"cards.withdrawn <= cards.lim AND cards.withdrawn >= cards.floor_",
		"cards.withdrawn <= cards.lim OR cards.lim IS NULL",
		"NOT (cards.withdrawn > cards.lim)",
		"NOT (cards.withdrawn > cards.lim OR cards.floor_ > 1)",
		"cards.withdrawn + cards.floor_ <= 2",
		"cards.withdrawn >= 0",
	} {
		c, err := ParseRowCheck(text, "")
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		orig := c.Expr
		c.nullSafe(s)
		if c.Written() != orig {
			t.Errorf("%s: Written() is not the condition as parsed", text)
		}
		vals := []*int64{nil, ptr(0), ptr(1), ptr(2)}
		for _, w := range vals[1:] {
			for _, l := range vals {
				for _, f := range vals {
					row := map[string]*int64{"withdrawn": w, "lim": l, "floor_": f}
					want := eval3(orig, row) != tvFalse
					for _, hl := range []int64{-5, 0, 1, 9} {
						for _, hf := range []int64{-5, 0, 1, 9} {
							hidden := map[string]int64{"lim": hl, "floor_": hf}
							if got := eval2(c.Expr, row, hidden); got != want {
								t.Errorf("%s on %s (hidden %v): model says holds=%v, SQL says %v", text, show(row), hidden, got, want)
							}
						}
					}
				}
			}
		}
	}
}

func ptr(v int64) *int64 { return &v }

func show(row map[string]*int64) string {
	out := ""
	for _, k := range []string{"withdrawn", "lim", "floor_"} {
		if row[k] == nil {
			out += k + "=NULL "
		} else {
			out += fmt.Sprintf("%s=%d ", k, *row[k])
		}
	}
	return out
}

type tv int

const (
	tvFalse tv = iota
	tvTrue
	tvNull
)

// eval3 evaluates a condition with SQL's three-valued logic.
func eval3(e sqlir.Expr, row map[string]*int64) tv {
	switch x := e.(type) {
	case *sqlir.Binary:
		switch x.Op {
		case sqlir.OpAnd, sqlir.OpOr:
			a, b := eval3(x.X, row), eval3(x.Y, row)
			if x.Op == sqlir.OpAnd {
				if a == tvFalse || b == tvFalse {
					return tvFalse
				}
				if a == tvNull || b == tvNull {
					return tvNull
				}
				return tvTrue
			}
			if a == tvTrue || b == tvTrue {
				return tvTrue
			}
			if a == tvNull || b == tvNull {
				return tvNull
			}
			return tvFalse
		}
		a, b := num3(x.X, row), num3(x.Y, row)
		if a == nil || b == nil {
			return tvNull
		}
		if compare(x.Op, *a, *b) {
			return tvTrue
		}
		return tvFalse
	case *sqlir.Unary:
		switch eval3(x.X, row) {
		case tvTrue:
			return tvFalse
		case tvFalse:
			return tvTrue
		}
		return tvNull
	case *sqlir.IsNull:
		isNull := num3(x.X, row) == nil
		if isNull != x.Not {
			return tvTrue
		}
		return tvFalse
	}
	panic(fmt.Sprintf("eval3: %T", e))
}

func num3(e sqlir.Expr, row map[string]*int64) *int64 {
	switch x := e.(type) {
	case *sqlir.ColRef:
		return row[x.Name]
	case *sqlir.Num:
		v := x.Val.Num().Int64()
		return &v
	case *sqlir.Binary:
		a, b := num3(x.X, row), num3(x.Y, row)
		if a == nil || b == nil {
			return nil
		}
		v := *a + *b
		if x.Op == sqlir.OpSub {
			v = *a - *b
		}
		return &v
	}
	panic(fmt.Sprintf("num3: %T", e))
}

// eval2 evaluates a condition as the model does: a NULL column compares
// by a hidden value, IS NULL sees the NULL.
func eval2(e sqlir.Expr, row map[string]*int64, hidden map[string]int64) bool {
	switch x := e.(type) {
	case *sqlir.Binary:
		switch x.Op {
		case sqlir.OpAnd:
			return eval2(x.X, row, hidden) && eval2(x.Y, row, hidden)
		case sqlir.OpOr:
			return eval2(x.X, row, hidden) || eval2(x.Y, row, hidden)
		}
		return compare(x.Op, num2(x.X, row, hidden), num2(x.Y, row, hidden))
	case *sqlir.Unary:
		return !eval2(x.X, row, hidden)
	case *sqlir.IsNull:
		return (num3(x.X, row) == nil) != x.Not
	}
	panic(fmt.Sprintf("eval2: %T", e))
}

func num2(e sqlir.Expr, row map[string]*int64, hidden map[string]int64) int64 {
	switch x := e.(type) {
	case *sqlir.ColRef:
		if row[x.Name] == nil {
			return hidden[x.Name]
		}
		return *row[x.Name]
	case *sqlir.Num:
		return x.Val.Num().Int64()
	case *sqlir.Binary:
		a, b := num2(x.X, row, hidden), num2(x.Y, row, hidden)
		if x.Op == sqlir.OpSub {
			return a - b
		}
		return a + b
	}
	panic(fmt.Sprintf("num2: %T", e))
}

func compare(op sqlir.Op, a, b int64) bool {
	switch op {
	case sqlir.OpEq:
		return a == b
	case sqlir.OpNe:
		return a != b
	case sqlir.OpLt:
		return a < b
	case sqlir.OpLe:
		return a <= b
	case sqlir.OpGt:
		return a > b
	}
	return a >= b
}
