package frontend

import (
	"math/big"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/ir"
)

// loadDecimal loads testdata/decimal/dec, a module that requires
// github.com/shopspring/decimal.
func loadDecimal(t *testing.T) *Loaded {
	t.Helper()
	dir, _ := filepath.Abs(filepath.Join("testdata", "decimal"))
	l, err := Load(Config{Dir: dir, Patterns: []string{"./dec"}})
	if err != nil {
		t.Fatalf("Load(dec): %v", err)
	}
	return l
}

// varSort returns the sort of the program's variable called name.
func varSort(t *testing.T, p *ir.Program, name string) ir.Sort {
	t.Helper()
	for _, v := range p.Vars {
		if v.Name == name {
			return v.Type
		}
	}
	t.Fatalf("%s: no variable %s", p.Name, name)
	return 0
}

func TestDecimalTranslation(t *testing.T) {
	l := loadDecimal(t)
	tests := []struct {
		entry string
		want  []string           // in the IR text
		reals []string           // variables of sort Real
		sorts map[string]ir.Sort // other variables and their sorts
	}{
		{".Withdraw", []string{
			// Scan into a *decimal.Decimal: a real target.
			`select "SELECT balance FROM accounts WHERE id = ?" args(id) into(bal)`,
			// balance.Sub(amt).IsNegative() as real arithmetic.
			"assume (bal#2 - amt) < 0",
			// A decimal argument binds its value.
			`exec "UPDATE accounts SET balance = balance - ? WHERE id = ?" args(amt, id)`,
		}, []string{"amt", "bal"}, map[string]ir.Sort{"id": ir.Int}},
		{".Load", []string{
			// Scan into a struct field of type decimal.Decimal.
			"into(a.ID, a.Balance)",
			// a.Balance.LessThan(decimal.Zero): decimal.Zero is 0.
			"assume t17 < 0",
			`exec "UPDATE accounts SET balance = ? WHERE id = ?" args(-t21, id)`,
		}, []string{"a.Balance"}, map[string]ir.Sort{"a.ID": ir.Int}},
		{".Calls", []string{
			"fromInt := real(n)",
			"cents := real(n) * 1/100",
			"parsed := 25/2",
			"parsed2 := -1/8",
			"perr := false",
			// Only plain decimal notation is parsed.
			"havoc decimal.RequireFromString()",
			"sum := x + y",
			"diff := x - y",
			"prod := x * 3",
			"neg := -x",
			"abs := ite(x < 0, -x, x)",
			"cmp := ite(x < y, -1, ite(x == y, 0, 1))",
			"sign := ite(x < 0, -1, ite(x == 0, 0, 1))",
			"eq := x == y",
			"lt := x < y",
			"le := x <= y",
			"gt := x > y",
			"ge := x >= y",
			"isNeg := x < 0",
			"isPos := x > 0",
			"isZero := x == 0",
			// Div is not modelled: an arbitrary real.
			"havoc decimal.Div()",
			// Round(2) is within half a cent of x.
			"assume (-1/200 <= (decimal.Round() - x)) && ((decimal.Round() - x) <= 1/200)",
			// IntPart truncates toward zero.
			"assume ((x >= 0) => (((decimal.IntPart() >= 0) && (real(decimal.IntPart()) <= x)) && (x < (real(decimal.IntPart()) + 1)))) && ((x < 0) => (((decimal.IntPart() <= 0) && (x <= real(decimal.IntPart()))) && ((real(decimal.IntPart()) - 1) < x)))",
			"shifted := x * 1000",
			// Max of variadic arguments, copied out of the argument array.
			"most := ite(decimal.arg#2 > ite(decimal.arg > x, decimal.arg, x), decimal.arg#2, ite(decimal.arg > x, decimal.arg, x))",
			"total := x + decimal.arg#3",
			"zero := 0",
			// == on Decimal structs only implies numeric equality.
			"=> (x == y)",
			// A method value: not modelled.
			"havoc decimal.Add$bound()",
		}, []string{"x", "y", "f", "sum", "decimal.Div()", "decimal.Round()", "most"},
			map[string]ir.Sort{"n": ir.Int, "cmp": ir.Int, "eq": ir.Bool, "decimal.IntPart()": ir.Int}},
		{".ViaPtr", []string{
			// A value method called through a *Decimal.
			"viaPtr := t1 + y",
		}, []string{"viaPtr"}, nil},
		{".Floats", []string{
			// A conversion is a variable named as written (traces show it).
			// (with its "is NaN" flag, floatnan.go: price may be NaN).
			"float64(qty), isNaN(float64(qty)) := real(qty), false",
			":= price * float64(qty), isNaN(price) || isNaN(float64(qty))",
			// Float constants are the decimals they denote.
			// (flags here too: the floats reach the INSERT's arguments,
			// where a NaN makes the path an approximation.)
			"half, isNaN(half) := total * 1/2",
			"float64(rate), isNaN(float64(rate)) := rate",
			"wide, isNaN(wide) := float64(rate) + 1/10",
			"havoc nanArg",
			// int64(total) truncates toward zero.
			"assume ((total >= 0) => (((t3 >= 0) && (real(t3) <= total)) && (total < (real(t3) + 1))))",
		}, []string{"price", "rate", "total", "wide"}, map[string]ir.Sort{"qty": ir.Int, "t3": ir.Int}},
		{".ScanPtr", []string{
			// A pointer method (Scan) changes its receiver arbitrarily.
			"havoc d\t",
			"havoc decimal.Scan()",
		}, []string{"d"}, nil},
	}
	for _, tt := range tests {
		p := translate(t, l, tt.entry)
		text := p.String()
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: IR lacks %q:\n%s", tt.entry, w, text)
			}
		}
		for _, name := range tt.reals {
			if s := varSort(t, p, name); s != ir.Real {
				t.Errorf("%s: %s has sort %s, want real", tt.entry, name, s)
			}
		}
		for name, want := range tt.sorts {
			if s := varSort(t, p, name); s != want {
				t.Errorf("%s: %s has sort %s, want %s", tt.entry, name, s, want)
			}
		}
		if len(p.Unsupported) > 0 {
			t.Errorf("%s: unexpected unsupported constructs %v", tt.entry, p.Unsupported)
		}
	}
}

// rat parses a decimal constant.
func rat(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("bad number %q", s)
	}
	return r
}

// modelAccepts translates a rounding of an input x with the given
// emitter, then reports whether the assumptions it emitted hold for x and
// the library's result got.
func modelAccepts(t *testing.T, x, got *big.Rat, emit func(tr *translator, x ir.Expr) ir.Expr) bool {
	t.Helper()
	tr := &translator{l: &Loaded{}, p: ir.NewProgram("test")}
	tr.cur = tr.p.Entry
	xv := tr.p.NewVar("x", ir.Real, ir.Input)
	res, ok := emit(tr, xv).(*ir.Var)
	if !ok {
		t.Fatalf("the result is not a variable")
	}
	env := func(v *ir.Var) (ir.Value, bool) {
		switch v {
		case xv:
			return ir.NumValue(ir.Real, x), true
		case res:
			return ir.NumValue(res.Type, got), true
		}
		return ir.Value{}, false
	}
	for _, e := range tr.p.Edges {
		a, ok := e.Stmt.(*ir.Assume)
		if !ok {
			continue
		}
		v, err := ir.Eval(a.Cond, env)
		if err != nil {
			t.Fatalf("eval %s: %v", a.Cond, err)
		}
		if !v.B {
			return false
		}
	}
	return true
}

// TestRoundingModelsAreSound checks that the constraints on rounded
// results admit what shopspring/decimal computes (the library's
// documented examples and a few more), and exclude a wrong answer.
func TestRoundingModelsAreSound(t *testing.T) {
	tests := []struct {
		mode   string
		places int64 // ignored by Floor, Ceil and IntPart
		x, got string
		wrong  string // a result the model must reject
	}{
		{"Round", 1, "5.45", "5.5", "5.3"},
		{"Round", -1, "545", "550", "500"},
		{"Round", 1, "-5.45", "-5.5", "-5.3"},
		{"Round", 2, "1.2345", "1.23", "1.25"},
		{"Round", 1, "0.0449999", "0", "0.1"},
		{"Round", 0, "2.5", "3", "4"},
		{"RoundBank", 1, "5.45", "5.4", "5.6"},
		{"RoundBank", -1, "545", "540", "530"},
		{"RoundBank", 1, "5.55", "5.6", "5.4"},
		{"RoundCeil", -2, "545", "600", "500"},
		{"RoundCeil", -2, "500", "500", "600"},
		{"RoundCeil", 2, "1.1001", "1.11", "1.1"},
		{"RoundCeil", 1, "-1.454", "-1.4", "-1.5"},
		{"RoundFloor", -2, "545", "500", "600"},
		{"RoundFloor", -2, "-500", "-500", "-600"},
		{"RoundFloor", 2, "1.1001", "1.1", "1.11"},
		{"RoundFloor", 1, "-1.454", "-1.5", "-1.4"},
		{"RoundUp", -2, "545", "600", "500"},
		{"RoundUp", -2, "500", "500", "600"},
		{"RoundUp", 2, "1.1001", "1.11", "1.1"},
		{"RoundUp", 1, "-1.454", "-1.5", "-1.4"},
		{"RoundDown", -2, "545", "500", "600"},
		{"RoundDown", -2, "-500", "-500", "-400"},
		{"RoundDown", 2, "1.1001", "1.1", "1.11"},
		{"RoundDown", 1, "-1.454", "-1.4", "-1.5"},
		{"Truncate", 2, "123.456", "123.45", "123.46"},
		{"Truncate", -2, "5432", "5400", "5500"},
		{"Truncate", -2, "-5432", "-5400", "-5500"},
		{"Truncate", 1, "0.05", "0", "-0.1"},
		{"Floor", 0, "1.5", "1", "2"},
		{"Floor", 0, "-1.5", "-2", "-1"},
		{"Floor", 0, "2", "2", "1"},
		{"Floor", 0, "0.3", "0", "-1"},
		{"Ceil", 0, "1.5", "2", "1"},
		{"Ceil", 0, "-1.5", "-1", "-2"},
		{"Ceil", 0, "-0.3", "0", "1"},
		{"IntPart", 0, "1.9", "1", "2"},
		{"IntPart", 0, "-1.9", "-1", "-2"},
		{"IntPart", 0, "0.5", "0", "1"},
		{"IntPart", 0, "-0.5", "0", "-1"},
		{"IntPart", 0, "3", "3", "2"},
	}
	for _, tt := range tests {
		emit := func(tr *translator, x ir.Expr) ir.Expr {
			switch tt.mode {
			case "IntPart":
				return tr.truncate(x, "r")
			case "Floor", "Ceil":
				return tr.rounded(x, ir.RealLit(big.NewRat(1, 1)), tt.mode, "r")
			}
			p, ok := pow10(value{expr: ir.IntLit(tt.places)})
			if !ok {
				t.Fatalf("pow10(%d) failed", tt.places)
			}
			unit := new(big.Rat).Inv(p.(*ir.RealConst).V)
			return tr.rounded(x, ir.RealLit(unit), tt.mode, "r")
		}
		x := rat(t, tt.x)
		if !modelAccepts(t, x, rat(t, tt.got), emit) {
			t.Errorf("%s(%s, %d) = %s in the library, but the model excludes it", tt.mode, tt.x, tt.places, tt.got)
		}
		if modelAccepts(t, x, rat(t, tt.wrong), emit) {
			t.Errorf("%s(%s, %d): the model admits the wrong result %s", tt.mode, tt.x, tt.places, tt.wrong)
		}
	}
}

func TestDecimalLiterals(t *testing.T) {
	tests := []struct {
		text string
		want string // "" = not modelled
	}{
		{"12.50", "25/2"},
		{"-0.125", "-1/8"},
		{"7", "7"},
		{"1e3", ""},
		{"1/3", ""},
		{".5", ""},
		{"", ""},
		{"abc", ""},
	}
	for _, tt := range tests {
		e, ok := decimalLit(constStr(tt.text))
		switch {
		case tt.want == "" && ok:
			t.Errorf("decimalLit(%q) = %s, want not modelled", tt.text, e)
		case tt.want != "" && (!ok || e.String() != tt.want):
			t.Errorf("decimalLit(%q) = %v, %v; want %s", tt.text, e, ok, tt.want)
		}
	}
}
