package ir

import "sort"

// Loc is a location (node) of a Program's control-flow automaton.
type Loc int

// An Edge joins two locations and carries one statement.
type Edge struct {
	ID       int
	From, To Loc
	Stmt     Stmt
}

// Program is the control-flow automaton of one entry point.
type Program struct {
	Name   string // the entry function, as (*ssa.Function).String()
	Pos    Info   // the entry function's declaration
	Vars   []*Var
	Inputs []*Var // the entry's parameters, in order
	// ErrResults are the entry's error results: each the bool "the
	// entry returned a non-nil error" (nil where the frontend keeps no
	// variable for it).
	ErrResults []*Var

	Entry, Exit, Error Loc
	NumLocs            int
	Edges              []*Edge
	Out                [][]*Edge // outgoing edges by location

	// Unsupported lists constructs the frontend could not model; a
	// program with any is reported UNKNOWN.
	Unsupported []Unsupported

	// Assumptions says, in words, what the frontend assumed beyond the
	// code (each once).
	Assumptions []string

	// Goroutines are the goroutines the frontend translated in place, at
	// their go statement (goroutine.go).
	Goroutines []*Goroutine

	// InProcessLocks are the in-process locks (sync.Mutex, sync.RWMutex)
	// the entry takes. The model does not let them order requests: two
	// instances of a service do not share them (package pipeline says so
	// on a concurrent counterexample).
	InProcessLocks []InProcessLock

	// Dialect, when set, is the SQL dialect of this entry's statements
	// where it is not the whole program's (a program that opens handles
	// of two dialects): the row model reads them in it.
	Dialect string

	// Strings maps the codes of the program's string constants (see
	// StringCode, as decimal text) back to the strings, for traces.
	Strings map[string]string

	// Settings are the statements that set transaction characteristics
	// (SET TRANSACTION …), with the handle each runs on: whether one
	// applies to a transaction depends on where it runs (package
	// pipeline).
	Settings []Setting

	names map[string]int
}

// Assume records an assumption (once).
func (p *Program) Assume(text string) {
	for _, a := range p.Assumptions {
		if a == text {
			return
		}
	}
	p.Assumptions = append(p.Assumptions, text)
}

// An InProcessLock is a call that takes an in-process lock: Lock or
// RLock of a sync.Mutex or sync.RWMutex.
type InProcessLock struct {
	Name     string // the lock as the Go code writes it ("w.mu")
	Key      string // the lock across entries: a type's field, a package variable
	Type     string // "sync.Mutex", "sync.RWMutex"
	Read     bool   // RLock: shared with other readers
	Position string // file:line of the call
}

// A Setting is a statement that sets transaction characteristics, run
// on handle Tx (0: the pool).
type Setting struct {
	Tx Tx
	Info
}

// Unsupported is a construct the frontend could not model.
type Unsupported struct {
	What string
	Info
}

// NewProgram returns a program with entry, exit and error locations.
func NewProgram(name string) *Program {
	p := &Program{Name: name, names: map[string]int{}}
	p.Entry = p.NewLoc()
	p.Exit = p.NewLoc()
	p.Error = p.NewLoc()
	return p
}

// NewLoc adds a location.
func (p *Program) NewLoc() Loc {
	l := Loc(p.NumLocs)
	p.NumLocs++
	p.Out = append(p.Out, nil)
	return l
}

// AddEdge adds an edge from → to carrying s.
func (p *Program) AddEdge(from, to Loc, s Stmt) *Edge {
	e := &Edge{ID: len(p.Edges), From: from, To: to, Stmt: s}
	p.Edges = append(p.Edges, e)
	p.Out[from] = append(p.Out[from], e)
	return e
}

// NewVar adds a variable; the name is made unique by a numeric suffix.
func (p *Program) NewVar(name string, sort Sort, kind VarKind) *Var {
	if p.names == nil {
		p.names = map[string]int{}
	}
	base := name
	if n := p.names[base]; n > 0 {
		for {
			name = base + "#" + itoa(n)
			n++
			if p.names[name] == 0 {
				break
			}
		}
		p.names[base] = n
	} else {
		p.names[base] = 1
	}
	p.names[name]++
	v := &Var{Name: name, Type: sort, Kind: kind}
	p.Vars = append(p.Vars, v)
	return v
}

// Unsupport records an unsupported construct.
func (p *Program) Unsupport(what string, at Info) {
	p.Unsupported = append(p.Unsupported, Unsupported{What: what, Info: at})
}

// In returns the incoming edges of every location.
func (p *Program) In() [][]*Edge {
	in := make([][]*Edge, p.NumLocs)
	for _, e := range p.Edges {
		in[e.To] = append(in[e.To], e)
	}
	return in
}

// Reachable returns the locations reachable from Entry.
func (p *Program) Reachable() []bool {
	seen := make([]bool, p.NumLocs)
	stack := []Loc{p.Entry}
	seen[p.Entry] = true
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range p.Out[l] {
			if !seen[e.To] {
				seen[e.To] = true
				stack = append(stack, e.To)
			}
		}
	}
	return seen
}

// SortedVars returns the program's variables sorted by name.
func (p *Program) SortedVars() []*Var {
	out := append([]*Var(nil), p.Vars...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// Shell returns a program with p's name, variables, inputs, locations and
// unsupported constructs but no edges: the start of a transformed copy.
// New variables of the copy do not clash with p's names.
func (p *Program) Shell() *Program {
	q := &Program{
		Name: p.Name, Pos: p.Pos,
		Vars: append([]*Var(nil), p.Vars...), Inputs: p.Inputs, ErrResults: p.ErrResults,
		Entry: p.Entry, Exit: p.Exit, Error: p.Error,
		NumLocs: p.NumLocs, Out: make([][]*Edge, p.NumLocs),
		Unsupported: p.Unsupported, Assumptions: p.Assumptions, Strings: p.Strings,
		Settings: p.Settings, InProcessLocks: p.InProcessLocks, names: map[string]int{},
	}
	for k, v := range p.names {
		q.names[k] = v
	}
	return q
}

// HasCycle reports whether a location of p reachable from Entry lies on a
// cycle of p's control flow (a loop the program may run more than once).
func (p *Program) HasCycle() bool {
	heads, _ := loopHeads(p)
	return len(heads) > 0
}
