package boolprog

// Program is a boolean program: a control-flow graph whose variables are
// booleans b0…bn-1, one per predicate.
type Program struct {
	Name               string
	Preds              []string // Preds[i] is the text of the predicate b_i stands for
	NumLocs            int
	Entry, Exit, Error int
	Edges              []*Edge
	Out                [][]*Edge
}

// Edge carries one statement. Orig is the ID of the ir.Edge it abstracts;
// Label is a short text of that statement (printed as a comment).
type Edge struct {
	ID, From, To int
	Stmt         Stmt
	Orig         int
	Label        string
}

// Stmt is Skip, *Assume or *Assign. A nil Stmt behaves as Skip.
type Stmt interface{ bstmt() }

// Skip does nothing.
type Skip struct{}

// Assume blocks unless Cond holds. A nil Cond is true.
type Assume struct{ Cond Expr }

// Assign is the parallel assignment Vars[i] := choose(Values[i].Pos, Values[i].Neg).
// Every Values[i] is evaluated in the pre-state before any variable is
// assigned.
type Assign struct {
	Vars   []int
	Values []Choose
}

// Choose is true if Pos holds, false if Neg holds, and either (*) if
// neither. If both hold the state is inconsistent and is dropped.
// A nil Pos or Neg is false, so the zero Choose is '*'.
type Choose struct{ Pos, Neg Expr }

func (Skip) bstmt()    {}
func (*Assume) bstmt() {}
func (*Assign) bstmt() {}

// Expr is a boolean expression: Const, Var, *Not, *And, *Or.
type Expr interface{ bexpr() }

// Const is 0 or 1.
type Const bool

// Var is the variable b_i.
type Var int

// Not is !X.
type Not struct{ X Expr }

// And is the conjunction of Xs (true if empty).
type And struct{ Xs []Expr }

// Or is the disjunction of Xs (false if empty).
type Or struct{ Xs []Expr }

func (Const) bexpr() {}
func (Var) bexpr()   {}
func (*Not) bexpr()  {}
func (*And) bexpr()  {}
func (*Or) bexpr()   {}

// NewProgram returns an empty program with entry, exit and error locations 0, 1, 2.
// The predicate texts are copied.
func NewProgram(name string, preds []string) *Program {
	return &Program{
		Name:    name,
		Preds:   append([]string(nil), preds...),
		NumLocs: 3,
		Entry:   0,
		Exit:    1,
		Error:   2,
		Out:     make([][]*Edge, 3),
	}
}

// NewLoc adds a fresh location and returns its number.
func (p *Program) NewLoc() int {
	l := p.NumLocs
	p.grow(l + 1)
	return l
}

// grow makes room for locations 0…n-1.
func (p *Program) grow(n int) {
	if n > p.NumLocs {
		p.NumLocs = n
	}
	for len(p.Out) < p.NumLocs {
		p.Out = append(p.Out, nil)
	}
}

// AddEdge adds an edge from location from to location to carrying s; it
// extends NumLocs if either location is new. The edge's ID is its index in
// p.Edges.
func (p *Program) AddEdge(from, to int, s Stmt, orig int, label string) *Edge {
	if from < 0 || to < 0 {
		panic("boolprog: negative location")
	}
	p.grow(max(from, to) + 1)
	e := &Edge{ID: len(p.Edges), From: from, To: to, Stmt: s, Orig: orig, Label: label}
	p.Edges = append(p.Edges, e)
	p.Out[from] = append(p.Out[from], e)
	return e
}

// Value is a three-valued predicate value in an abstract state.
type Value uint8

const (
	Top Value = iota // unknown: both values possible
	False
	True
)

// String returns "*", "0" or "1".
func (v Value) String() string {
	switch v {
	case False:
		return "0"
	case True:
		return "1"
	}
	return "*"
}

// Trace is an abstract counterexample: the edges from Entry to Error and
// the abstract state before each edge (States[i] before Edges[i]) and after
// the last one. States are projected onto the live variables of their
// location: a variable that is dead there (never read again before being
// assigned, on any path to Error) is Top; in particular the final state, at
// Error, is all Top.
type Trace struct {
	Edges  []*Edge
	States [][]Value
}

// Stats counts the checker's work.
type Stats struct {
	States int // abstract states explored (distinct (location, state) pairs stored)
}

// NumVars is the number of boolean variables: len(p.Preds), or more if an
// expression mentions a higher variable.
func (p *Program) NumVars() int {
	n := len(p.Preds)
	for _, e := range p.Edges {
		for _, v := range stmtVars(e.Stmt) {
			n = max(n, v+1)
		}
	}
	return n
}

// numLocs is the number of locations, counting any edge endpoint and the
// three distinguished locations even if NumLocs is too small.
func (p *Program) numLocs() int {
	n := max(p.NumLocs, p.Entry+1, p.Exit+1, p.Error+1)
	for _, e := range p.Edges {
		n = max(n, e.From+1, e.To+1)
	}
	return n
}

// outEdges returns the out-edge lists: p.Out when it is consistent with
// p.Edges, else lists rebuilt from p.Edges in edge order.
func (p *Program) outEdges() [][]*Edge {
	n := p.numLocs()
	if len(p.Out) == n {
		cnt := 0
		for _, es := range p.Out {
			cnt += len(es)
		}
		if cnt == len(p.Edges) {
			return p.Out
		}
	}
	out := make([][]*Edge, n)
	for _, e := range p.Edges {
		out[e.From] = append(out[e.From], e)
	}
	return out
}
