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

// Stmt is Skip, *Assume or *Assign.
type Stmt interface{ bstmt() }

// Skip does nothing.
type Skip struct{}

// Assume blocks unless Cond holds.
type Assume struct{ Cond Expr }

// Assign is the parallel assignment Vars[i] := choose(Values[i].Pos, Values[i].Neg).
type Assign struct {
	Vars   []int
	Values []Choose
}

// Choose is true if Pos holds, false if Neg holds, and either (*) if
// neither. If both hold the state is inconsistent and is dropped.
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
func NewProgram(name string, preds []string) *Program { panic("TODO") }

// AddEdge adds an edge.
func (p *Program) AddEdge(from, to int, s Stmt, orig int, label string) *Edge { panic("TODO") }

// String prints the program in the seed paper's boolean-program syntax.
func (p *Program) String() string { panic("TODO") }

// Value is a three-valued predicate value in an abstract state.
type Value uint8

const (
	Top Value = iota // unknown: both values possible
	False
	True
)

// Trace is an abstract counterexample: the edges from Entry to Error and
// the abstract state before each edge (States[i] before Edges[i]) and after
// the last one.
type Trace struct {
	Edges  []*Edge
	States [][]Value
}

// Stats counts the checker's work.
type Stats struct {
	States int // abstract states explored
}

// Reach searches the abstract state space from Entry (every variable
// unknown) for Error. It returns a shortest trace, or nil if Error is
// unreachable. It always terminates: the state space is finite.
func Reach(p *Program) (*Trace, Stats) { panic("TODO") }
