package smt

import (
	"fmt"
	"strconv"

	"github.com/dbverify/dbverify/ir"
)

// cached is a remembered answer of Sat.
type cached struct {
	res    Result
	reason string // for Unknown
}

// queryKey returns a canonical text for e: two expressions get the same key
// exactly when they are structurally equal, with variables identified by
// name and sort (the identity of their Z3 constants).
//
// The key lists e's distinct subterms in post-order, one definition per
// line, each naming its operands by their index in the list. Structurally
// equal subterms are listed once, so the key grows with the size of e's
// DAG, not of its tree (substitution shares subterms; printing e with
// String could be exponentially long). Names are length-prefixed, so no
// variable name can make two different expressions collide.
func queryKey(e ir.Expr) (string, error) {
	k := keyBuilder{ids: make(map[string]int), memo: make(map[ir.Expr]int)}
	if _, err := k.id(e); err != nil {
		return "", err
	}
	return string(k.buf), nil
}

type keyBuilder struct {
	ids  map[string]int  // definition -> index
	memo map[ir.Expr]int // node -> index, to visit a shared node once
	buf  []byte
	def  []byte // scratch
}

func (k *keyBuilder) id(e ir.Expr) (int, error) {
	if e == nil {
		return 0, fmt.Errorf("%w: nil expression", ErrSort)
	}
	if i, ok := k.memo[e]; ok {
		return i, nil
	}
	var ops [3]int
	var d []byte
	switch e := e.(type) {
	case *ir.Var:
		if e == nil {
			return 0, fmt.Errorf("%w: nil variable", ErrSort)
		}
		d = append(k.def[:0], 'v')
		d = strconv.AppendUint(d, uint64(e.Type), 10)
		d = append(d, ':')
		d = strconv.AppendInt(d, int64(len(e.Name)), 10)
		d = append(d, ':')
		d = append(d, e.Name...)
	case *ir.IntConst:
		if e == nil || e.V == nil {
			return 0, fmt.Errorf("%w: nil integer constant", ErrSort)
		}
		d = e.V.Append(append(k.def[:0], 'i'), 10)
	case *ir.RealConst:
		if e == nil || e.V == nil {
			return 0, fmt.Errorf("%w: nil real constant", ErrSort)
		}
		d = append(append(k.def[:0], 'r'), e.V.String()...)
	case ir.BoolConst:
		d = append(k.def[:0], 'b')
		if e {
			d = append(d, '1')
		} else {
			d = append(d, '0')
		}
	case *ir.ToReal:
		if e == nil {
			return 0, fmt.Errorf("%w: nil conversion", ErrSort)
		}
		if err := k.ops(ops[:1], e.X); err != nil {
			return 0, err
		}
		d = k.node('R', 0, ops[:1])
	case *ir.Unary:
		if e == nil {
			return 0, fmt.Errorf("%w: nil unary expression", ErrSort)
		}
		if err := k.ops(ops[:1], e.X); err != nil {
			return 0, err
		}
		d = k.node('u', e.Op, ops[:1])
	case *ir.Binary:
		if e == nil {
			return 0, fmt.Errorf("%w: nil binary expression", ErrSort)
		}
		if err := k.ops(ops[:2], e.X, e.Y); err != nil {
			return 0, err
		}
		d = k.node('o', e.Op, ops[:2])
	case *ir.Ite:
		if e == nil {
			return 0, fmt.Errorf("%w: nil ite", ErrSort)
		}
		if err := k.ops(ops[:3], e.Cond, e.Then, e.Else); err != nil {
			return 0, err
		}
		d = k.node('?', 0, ops[:3])
	default:
		return 0, fmt.Errorf("%w: unknown expression type %T", ErrSort, e)
	}
	k.def = d
	i, ok := k.ids[string(d)]
	if !ok {
		i = len(k.ids)
		k.ids[string(d)] = i
		k.buf = append(k.buf, d...)
		k.buf = append(k.buf, '\n')
	}
	k.memo[e] = i
	return i, nil
}

func (k *keyBuilder) ops(dst []int, es ...ir.Expr) error {
	for j, e := range es {
		i, err := k.id(e)
		if err != nil {
			return err
		}
		dst[j] = i
	}
	return nil
}

func (k *keyBuilder) node(tag byte, op ir.Op, ops []int) []byte {
	d := append(k.def[:0], tag)
	d = strconv.AppendUint(d, uint64(op), 10)
	for _, i := range ops {
		d = append(d, ',')
		d = strconv.AppendInt(d, int64(i), 10)
	}
	return d
}
