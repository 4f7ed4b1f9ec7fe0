package boolprog

// Paths is the seed paper's baseline: it enumerates the CFG paths of p from
// Entry to Error, ignoring the statements (each path is later checked with
// one SMT query), and calls visit with each path's edges. A path ends at its
// first arrival at Error. Every path is visited exactly once, shortest paths
// first (iterative deepening on the length; among paths of equal length, in
// depth-first order of p.Out). visit receives a fresh slice it may keep.
//
// A loop on a path from Entry to Error makes the set of paths infinite, and
// a program with n sequential branches has 2^n paths; so the enumeration
// stops after limit paths, or as soon as visit returns false. A limit <= 0
// means no limit: Paths then runs forever on a program with such a loop
// unless visit returns false.
//
// complete reports whether every path was visited: it is false if visit
// returned false or a further path exists beyond the limit.
func Paths(p *Program, visit func(edges []*Edge) bool, limit int) (complete bool) {
	nlocs := p.numLocs()
	out := p.outEdges()
	rel := coReach(p, nlocs)
	if !rel[p.Entry] {
		return true
	}
	if p.Entry == p.Error {
		return visit([]*Edge{}) // the empty path is the only one
	}
	// dist[l]: length of the shortest path from l to Error.
	dist := make([]int, nlocs)
	for l := range dist {
		dist[l] = -1
	}
	in := make([][]*Edge, nlocs)
	for _, e := range p.Edges {
		if e.From != p.Error {
			in[e.To] = append(in[e.To], e)
		}
	}
	dist[p.Error] = 0
	queue := []int{p.Error}
	for len(queue) > 0 {
		l := queue[0]
		queue = queue[1:]
		for _, e := range in[l] {
			if dist[e.From] < 0 {
				dist[e.From] = dist[l] + 1
				queue = append(queue, e.From)
			}
		}
	}
	// longest[l]: length of the longest path from l to Error, or -1 if
	// there are arbitrarily long ones (a cycle reachable from l that
	// reaches Error).
	longest, acyclic := longestPaths(p, out, rel, nlocs)

	en := &pathEnum{
		p: p, out: out, dist: dist, longest: longest, acyclic: acyclic,
		visit: visit, limit: limit,
	}
	for k := dist[p.Entry]; !acyclic || k <= longest[p.Entry]; k++ {
		if !en.dfs(p.Entry, k) {
			return false
		}
	}
	return true
}

type pathEnum struct {
	p       *Program
	out     [][]*Edge
	dist    []int
	longest []int
	acyclic bool
	visit   func([]*Edge) bool
	limit   int
	count   int
	path    []*Edge
}

// dfs extends the current path from l by exactly rem edges to Error. It
// returns false to stop the enumeration.
func (en *pathEnum) dfs(l, rem int) bool {
	if l == en.p.Error {
		if rem > 0 {
			return true
		}
		if en.limit > 0 && en.count >= en.limit {
			return false
		}
		en.count++
		return en.visit(append([]*Edge(nil), en.path...))
	}
	if en.dist[l] < 0 || en.dist[l] > rem || (en.acyclic && en.longest[l] < rem) {
		return true
	}
	for _, e := range en.out[l] {
		en.path = append(en.path, e)
		ok := en.dfs(e.To, rem-1)
		en.path = en.path[:len(en.path)-1]
		if !ok {
			return false
		}
	}
	return true
}

// longestPaths computes the longest path length from each location to
// Error over the locations that reach Error, and whether that subgraph
// (restricted to what Entry reaches) is acyclic. When it is not, the
// lengths are meaningless.
func longestPaths(p *Program, out [][]*Edge, rel []bool, nlocs int) ([]int, bool) {
	const (
		white = iota
		grey
		black
	)
	color := make([]int, nlocs)
	longest := make([]int, nlocs)
	for l := range longest {
		longest[l] = -1
	}
	longest[p.Error] = 0
	color[p.Error] = black
	acyclic := true
	// Iterative post-order DFS from Entry.
	type frame struct{ l, i int }
	stack := []frame{{p.Entry, 0}}
	color[p.Entry] = grey
	for len(stack) > 0 && acyclic {
		f := &stack[len(stack)-1]
		if f.i < len(out[f.l]) {
			e := out[f.l][f.i]
			f.i++
			if !rel[e.To] {
				continue
			}
			switch color[e.To] {
			case grey:
				acyclic = false
			case white:
				color[e.To] = grey
				stack = append(stack, frame{e.To, 0})
			}
			continue
		}
		l := f.l
		stack = stack[:len(stack)-1]
		color[l] = black
		for _, e := range out[l] {
			if rel[e.To] && longest[e.To] >= 0 {
				longest[l] = max(longest[l], longest[e.To]+1)
			}
		}
	}
	return longest, acyclic
}
