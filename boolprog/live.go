package boolprog

// bitset is a set of variables.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) add(i int)      { b[i/64] |= 1 << (uint(i) % 64) }
func (b bitset) has(i int) bool { return b[i/64]&(1<<(uint(i)%64)) != 0 }
func (b bitset) addAll(vs []int) {
	for _, v := range vs {
		b.add(v)
	}
}
func (b bitset) copyFrom(c bitset) { copy(b, c) }
func (b bitset) equal(c bitset) bool {
	for i := range b {
		if b[i] != c[i] {
			return false
		}
	}
	return true
}

// edgeUseKill returns the variables an edge reads and the ones it
// overwrites without reading.
func edgeUseKill(e *Edge) (use, kill []int) {
	switch s := e.Stmt.(type) {
	case *Assume:
		use = Vars(s.Cond)
	case *Assign:
		for _, c := range s.Values {
			use = appendVars(use, c.Pos)
			use = appendVars(use, c.Neg)
		}
		use = sortUniq(use)
		kill = append(kill, s.Vars...)
	}
	return use, kill
}

// coReach marks the locations from which Error is reachable in the CFG
// (ignoring the statements). Edges leaving Error are not followed.
func coReach(p *Program, nlocs int) []bool {
	in := make([][]*Edge, nlocs)
	for _, e := range p.Edges {
		if e.From != p.Error {
			in[e.To] = append(in[e.To], e)
		}
	}
	ok := make([]bool, nlocs)
	ok[p.Error] = true
	stack := []int{p.Error}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range in[l] {
			if !ok[e.From] {
				ok[e.From] = true
				stack = append(stack, e.From)
			}
		}
	}
	return ok
}

// liveVars computes, for every location, the variables that may be read on
// some path from it to Error before being overwritten (backward may-
// liveness: read by Assume conditions and Choose expressions, killed by
// Assign unless also read). Only edges into locations that reach Error
// count; nothing is live at Error. A variable that is not live at a location
// cannot influence whether Error is reached from there, so forgetting its
// value (setting it to Top) is exact for reachability.
func liveVars(p *Program, nvars, nlocs int, relevant []bool) []bitset {
	type uk struct{ use, kill bitset }
	in := make([][]*Edge, nlocs)
	eff := make(map[*Edge]uk, len(p.Edges))
	for _, e := range p.Edges {
		if e.From == p.Error || !relevant[e.From] || !relevant[e.To] {
			continue
		}
		in[e.To] = append(in[e.To], e)
		use, kill := edgeUseKill(e)
		u, k := newBitset(nvars), newBitset(nvars)
		u.addAll(use)
		k.addAll(kill)
		eff[e] = uk{u, k}
	}
	live := make([]bitset, nlocs)
	for l := range live {
		live[l] = newBitset(nvars)
	}
	// Worklist over locations; when live[l] grows, its predecessors are
	// revisited. Sets only grow, so this terminates.
	queued := make([]bool, nlocs)
	var work []int
	for l := range nlocs {
		if relevant[l] {
			work = append(work, l)
			queued[l] = true
		}
	}
	tmp := newBitset(nvars)
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		queued[l] = false
		for _, e := range in[l] {
			x := eff[e]
			from := live[e.From]
			for i := range tmp {
				tmp[i] = from[i] | x.use[i] | (live[l][i] &^ x.kill[i])
			}
			if !tmp.equal(from) {
				from.copyFrom(tmp)
				if !queued[e.From] {
					queued[e.From] = true
					work = append(work, e.From)
				}
			}
		}
	}
	return live
}

// LiveVars returns, for every location, the sorted list of variables live
// there (see Reach): the variables whose value may still matter for
// reaching Error.
func LiveVars(p *Program) [][]int {
	nvars, nlocs := p.NumVars(), p.numLocs()
	live := liveVars(p, nvars, nlocs, coReach(p, nlocs))
	out := make([][]int, nlocs)
	for l, b := range live {
		for v := range nvars {
			if b.has(v) {
				out[l] = append(out[l], v)
			}
		}
	}
	return out
}
