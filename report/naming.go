package report

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/vcgen"
)

// rowNaming tells BuildTrace which row symbol is the watched one and
// which columns are the row model's bookkeeping. It is the one place that
// knows package dbmodel's naming convention; once the lowering result
// names its watched symbols and ghosts, rowNaming is made from it.
type rowNaming struct {
	watched string // the watched row's symbol
	// slot is the symbol of a reference's key slot, which may not exist
	// on entry (instrument.ReferencedSlot).
	slot string
}

// conventionalNaming is dbmodel's convention: the watched row is "r", a
// reference's key slot "p", a column whose name starts with "$"
// (r.$exists) is a ghost.
func conventionalNaming() rowNaming { return rowNaming{watched: "r", slot: "p"} }

// isWatched reports whether sym is the watched row: the row whose state
// at entry is shown first and whose state at the end is the violation.
func (n rowNaming) isWatched(sym string) bool { return sym == n.watched }

// isGhostColumn reports whether v is a bookkeeping column of a row
// symbol, such as r.$exists: never shown.
func (n rowNaming) isGhostColumn(v *ir.Var) bool { return strings.HasPrefix(v.Col, "$") }

// displayName drops the numeric suffix that keeps variable names unique
// (bal#2 is the Go variable bal).
func displayName(name string) string {
	if i := strings.LastIndexByte(name, '#'); i > 0 {
		return name[:i]
	}
	return name
}

// shownName is the name a trace shows for variable v with value s: an
// inlined function's local as the function writes it (rate, not
// feeOf.rate; A.rate in request A), unless values holds that name with
// another value already (the caller's own rate at the same step).
func shownName(v *ir.Var, values map[string]string, s string) string {
	name := displayName(v.Name)
	if v.Scope == "" || isResultVar(v) {
		return name
	}
	req, rest := "", name
	if len(name) > 2 && name[1] == '.' && name[0] >= 'A' && name[0] <= 'Z' && !strings.HasPrefix(v.Scope, name[:2]) {
		req, rest = name[:2], name[2:] // a request's copy: A.feeOf.rate
	}
	short, ok := strings.CutPrefix(rest, v.Scope)
	if !ok || short == "" {
		return name
	}
	short = req + short
	if old, taken := values[short]; taken && old != s {
		return name
	}
	return short
}

// isTemporary reports whether variable v is a compiler temporary or a
// model artefact rather than something the user wrote: SSA values (t12)
// and their fields, lengths, call results, values returned by RETURNING
// before they reach a Go variable. A variable the source names (a local,
// a parameter, a field of one: ir.Var.Named, or an input) is the user's
// whatever its name's shape: t1 := amount * 2 is shown.
func isTemporary(v *ir.Var) bool {
	name := strings.ReplaceAll(displayName(v.Name), "$func.", ".") // a closure's values are the user's
	base := name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		base = name[i+1:]
	}
	switch {
	case strings.ContainsAny(name, "$()"), base == "merged", base == "noRows":
		return true
	case strings.HasPrefix(base, "returned") && ir.IsDigits(base[len("returned"):]):
		return true
	case v.Named || v.Kind == ir.Input:
		return false
	}
	return registerShaped(name)
}

// registerShaped reports whether a name reads like an SSA register's or a
// field of one (t11.Amount: a literal's field).
func registerShaped(name string) bool {
	for _, part := range strings.Split(name, ".") {
		if len(part) > 1 && part[0] == 't' && ir.IsDigits(part[1:]) {
			return true // an SSA value or a field of one (t11.Amount: a literal's field)
		}
	}
	return false
}

// hidden reports whether program variable v is left out of a trace: an
// internal field (time.Time's wall, a mutex's sema) no branch of the path
// tests.
func (b *traceBuilder) hidden(v *ir.Var) bool {
	return v.Internal && !b.tested[v]
}

// testedVars are the program variables the conditions of the path's
// branches read.
func testedVars(pf *vcgen.PathFormula) map[*ir.Var]bool {
	out := map[*ir.Var]bool{}
	for _, st := range pf.Steps {
		a, ok := st.Edge.Stmt.(*ir.Assume)
		if !ok || a.Info.Kind != ir.KindBranch {
			continue
		}
		for _, x := range ir.Vars(a.Cond) {
			out[x] = true
		}
	}
	return out
}

// stringNames prints the codes of string values (ir.StringCode): a
// literal of the program as itself, a code that is a decimal integer's
// as that integer's text, any other code as a symbolic name (str1,
// str2, … in order of appearance: equal names, equal strings), which the
// trace explains once.
type stringNames struct {
	literals map[string]string
	names    map[string]string
	order    []string
	// variants: a value was printed as a variant of another (ir's string
	// variants); unreal lists variants no string realises.
	variants bool
	unreal   []string
}

func newStringNames(literals map[string]string) *stringNames {
	return &stringNames{literals: literals, names: map[string]string{}}
}

func (s *stringNames) name(code string) string {
	if lit, ok := s.literals[code]; ok {
		return strconv.Quote(lit)
	}
	if n, ok := new(big.Int).SetString(code, 10); ok {
		if b, q, k, variant := ir.DecodeVariant(n); variant {
			return s.variant(b, q, k)
		}
	}
	if n, err := strconv.ParseInt(code, 10, 64); err == nil && n >= -ir.MaxDecimalCode && n <= ir.MaxDecimalCode {
		return strconv.Quote(code)
	}
	if n, ok := s.names[code]; ok {
		return n
	}
	n := "str" + strconv.Itoa(len(s.order)+1)
	s.names[code] = n
	s.order = append(s.order, n)
	return n
}

// variant prints the variant (q, k) of base b (ir.DecodeVariant): the
// base's text (a symbolic name's text is the name) with the case of its
// first letters changed, leading zeros, trailing spaces, quoted.
func (s *stringNames) variant(b *big.Int, q, k int) string {
	decimal := b.IsInt64() && b.Int64() >= -ir.MaxDecimalCode && b.Int64() <= ir.MaxDecimalCode
	base, err := strconv.Unquote(s.name(b.String()))
	if err != nil {
		base = s.name(b.String())
	}
	text, ok := ir.VariantText(base, decimal, q, k)
	if !ok {
		s.unreal = append(s.unreal, fmt.Sprintf("case form %d of %q", q, base))
		return fmt.Sprintf("%q (case form %d: not a real string)", base, q)
	}
	s.variants = true
	return strconv.Quote(text)
}

// notes explains the symbolic names used, if any.
func (s *stringNames) notes() []string {
	var out []string
	switch {
	case len(s.order) == 0:
	case s.variants:
		out = append(out, strings.Join(s.order, ", ")+" stand for those very texts: a quoted value spelled like one of them (case changed, spaces added) is another Go string that the database's collation takes for the same value")
	case len(s.order) == 1:
		out = append(out, s.order[0]+" is a string no literal of the program spells (any such string)")
	default:
		out = append(out, strings.Join(s.order, ", ")+" are distinct strings no literal of the program spells (any such strings)")
	}
	for _, u := range s.unreal {
		out = append(out, "the "+u+" is no string (the base has no letter): this counterexample may not be reproducible")
	}
	return out
}
