package witness

import (
	"fmt"
	"math/rand"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Generator draws random runs: initial rows that satisfy the constraint
// (rows that do not are pruned after seeding) and inputs, from a small
// domain with boundary values and the program's constants.
type Generator struct {
	Rng        *rand.Rand
	Schema     *Schema
	Constraint *Constraint
	// TableFacts are --assume facts over tables, as Constraints.
	TableFacts []*Constraint
	// Ints is the integer domain.
	Ints []int64
	// MaxRows bounds the rows per table.
	MaxRows int
}

// Domain is the integer domain for a program with constants ints: small
// values, the constants and their neighbours.
func Domain(ints []int64) []int64 {
	seen := map[int64]bool{}
	var out []int64
	add := func(v int64) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for _, v := range []int64{-1, 0, 1, 2, 3, 5, 10, 100} {
		add(v)
	}
	for _, c := range ints {
		add(c - 1)
		add(c)
		add(c + 1)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

var texts = []string{"a", "b", ""}

func (g *Generator) value(class string, nonNeg bool) string {
	switch class {
	case ClassText:
		return texts[g.Rng.Intn(len(texts))]
	case ClassBool:
		return strconv.Itoa(g.Rng.Intn(2))
	case ClassTime:
		return "2026-01-01 00:00:00"
	case ClassReal:
		v := g.Ints[g.Rng.Intn(len(g.Ints))]
		if g.Rng.Intn(4) == 0 {
			return strconv.FormatInt(v, 10) + ".5"
		}
		return strconv.FormatInt(v, 10)
	}
	v := g.Ints[g.Rng.Intn(len(g.Ints))]
	if nonNeg && v < 0 {
		v = -v
	}
	return strconv.FormatInt(v, 10)
}

// Run draws one run for an entry with the given inputs.
func (g *Generator) Run(inputs []Input) *Run {
	run := &Run{Inputs: map[string]string{}}
	for _, name := range sortedKeys(g.Schema.Tables) {
		t := g.Schema.Tables[name]
		n := g.Rng.Intn(g.MaxRows + 1)
		if strings.EqualFold(t.Name, g.Constraint.Table) && n == 0 {
			n = 1
		}
		key := map[string]bool{}
		if len(t.Keys) > 0 && len(t.Keys[0]) == 1 {
			key[strings.ToLower(t.Keys[0][0])] = true
		}
		for i := 1; i <= n; i++ {
			r := Row{Table: t.Name, Values: map[string]string{}}
			for _, col := range t.Columns {
				c := strings.ToLower(col.Name)
				switch {
				case key[c] && ColumnClass(col.Type) == ClassInt:
					r.Values[c] = strconv.Itoa(i)
				case strings.HasSuffix(c, "_id") || c == "id":
					r.Values[c] = strconv.Itoa(1 + g.Rng.Intn(3))
				default:
					r.Values[c] = g.value(ColumnClass(col.Type), false)
				}
			}
			run.Rows = append(run.Rows, r)
		}
	}
	run.Prune = append(run.Prune, g.Constraint.PruneQuery())
	for _, f := range g.TableFacts {
		run.Prune = append(run.Prune, f.PruneQuery())
	}
	lens := map[string]int{}
	for _, in := range inputs {
		path := in.Path
		for strings.Contains(path, "[]") {
			i := strings.Index(path, "[]")
			prefix := path[:i]
			n, ok := lens[prefix]
			if !ok {
				n = g.Rng.Intn(4)
				lens[prefix] = n
			}
			// One element per index: expand the first [] only; deeper
			// slices get index 0.
			if n == 0 {
				path = ""
				break
			}
			for j := 1; j < n; j++ {
				p := prefix + "[" + strconv.Itoa(j) + "]" + path[i+2:]
				run.Inputs[strings.ReplaceAll(p, "[]", "[0]")] = g.input(in.Kind, p)
			}
			path = prefix + "[0]" + path[i+2:]
		}
		if path != "" {
			run.Inputs[path] = g.input(in.Kind, path)
		}
	}
	return run
}

func (g *Generator) input(k InputKind, path string) string {
	switch k {
	case KindBool:
		return strconv.FormatBool(g.Rng.Intn(2) == 1)
	case KindString:
		if strings.Contains(strings.ToLower(path), "id") {
			return strconv.Itoa(1 + g.Rng.Intn(3))
		}
		return texts[g.Rng.Intn(len(texts))]
	case KindUint:
		return g.value(ClassInt, true)
	case KindFloat, KindDecimal:
		return g.value(ClassReal, false)
	case KindTime:
		// Around the time a row's date column holds (zeroOf): before,
		// equal, after.
		return times[g.Rng.Intn(len(times))]
	}
	return g.value(ClassInt, false)
}

// times are the timestamps a random run gives time.Time inputs.
var times = []string{"2025-12-31 00:00:00", "2026-01-01 00:00:00", "2026-01-02 00:00:00"}

var ident = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_.\[\]]*`)

// FactQuery is a query whose one value is 1 when the parameter fact holds
// for the inputs (names replaced by their values), else 0; ok is false
// when the fact names something that is not an input.
func FactQuery(fact string, inputs map[string]string) (string, bool) {
	ok := true
	expr := ident.ReplaceAllStringFunc(fact, func(w string) string {
		switch strings.ToUpper(w) {
		case "AND", "OR", "NOT", "NULL", "IS", "TRUE", "FALSE", "BETWEEN", "IN":
			return w
		}
		v, has := inputs[w]
		if !has {
			ok = false
			return w
		}
		return Literal(v)
	})
	return fmt.Sprintf("SELECT CASE WHEN (%s) THEN 1 ELSE 0 END", expr), ok
}
