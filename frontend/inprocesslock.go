package frontend

import (
	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// inProcessLockCalls are the calls that take an in-process lock, by
// function: whether the lock is shared (RLock).
var inProcessLockCalls = map[string]bool{
	"(*sync.Mutex).Lock":    false,
	"(*sync.RWMutex).Lock":  false,
	"(*sync.RWMutex).RLock": true,
}

// noteInProcessLock records on the program a call that takes an
// in-process lock (ir.Program.InProcessLocks). The model gives such a
// lock no effect on other requests, as for requests served by two
// instances of the service; the record lets a concurrent counterexample
// say so.
func (t *translator) noteInProcessLock(f *frame, fn *ssa.Function, c *ssa.CallCommon) {
	read, ok := inProcessLockCalls[fn.String()]
	if !ok || len(c.Args) == 0 {
		return
	}
	recv := c.Args[0]
	typ := "sync.Mutex"
	if fn.String() != "(*sync.Mutex).Lock" {
		typ = "sync.RWMutex"
	}
	name := t.exprName(f, recv)
	t.p.InProcessLocks = append(t.p.InProcessLocks, ir.InProcessLock{
		Name: name, Key: lockKey(recv, name), Type: typ, Read: read, Position: t.posString(t.pos),
	})
}

// lockKey names the lock recv points to across entries: the field of a
// type (two methods of one service lock its mutex field), or a package
// variable; else the Go expression.
func lockKey(recv ssa.Value, name string) string {
	switch x := recv.(type) {
	case *ssa.FieldAddr:
		return derefType(x.X.Type()).String() + "." + fieldName(x)
	case *ssa.Global:
		return x.String()
	}
	return name
}
