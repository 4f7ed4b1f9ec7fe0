package smt

/*
#cgo LDFLAGS: -lz3
#include <stdbool.h>
#include <z3.h>

// disable_ctrl_c sets the solver parameter ctrl_c=false, so that Z3 stops
// installing its own SIGINT handler around every check.
static void disable_ctrl_c(Z3_context c, Z3_solver s) {
	Z3_params p = Z3_mk_params(c);
	Z3_params_inc_ref(c, p);
	Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), false);
	Z3_solver_set_params(c, s, p);
	Z3_params_dec_ref(c, p);
}
*/
import "C"

import (
	"errors"
	"reflect"
	"runtime"
	"sync"

	"github.com/aclements/go-z3/z3"
)

// By default Z3 installs a SIGINT handler for the duration of every check:
// a Ctrl-C then cancels the running query (which answers Unknown) instead
// of reaching the Go program, and concurrent checks on several contexts
// race on that process-wide handler. The switch is the solver parameter
// ctrl_c, which go-z3 cannot set (it exposes no Z3_solver_set_params). So
// we reach the raw Z3 handles inside go-z3's wrappers, finding the
// unexported fields by name through reflect, and set the parameter with
// the context's lock held, as go-z3 itself does for every Z3 call.
//
// If go-z3's layout ever changes, layout reports !ok, the parameter stays at
// Z3's default, and TestCtrlCDisabled says so.

// z3Layout locates the unexported fields we need.
type z3Layout struct {
	ctxImpl, ctxLock, ctxC uintptr // Context.contextImpl, Context.lock, contextImpl.c
	solverImpl, solverC    uintptr // Solver.solverImpl, solverImpl.c
	ok                     bool
}

// layout inspects go-z3's types. It is cheap (a few reflect lookups) and
// pure, so it is computed per Solver rather than kept in a package variable.
func layout() z3Layout {
	var l z3Layout
	ct := reflect.TypeFor[z3.Context]()
	impl, ok1 := ct.FieldByName("contextImpl")
	lock, ok2 := ct.FieldByName("lock")
	if !ok1 || !ok2 || impl.Type.Kind() != reflect.Pointer || lock.Type != reflect.TypeFor[sync.Mutex]() {
		return l
	}
	cc, ok := impl.Type.Elem().FieldByName("c")
	if !ok || cc.Type.Kind() != reflect.Pointer {
		return l
	}
	st := reflect.TypeFor[z3.Solver]()
	simpl, ok := st.FieldByName("solverImpl")
	if !ok || simpl.Type.Kind() != reflect.Pointer {
		return l
	}
	sc, ok := simpl.Type.Elem().FieldByName("c")
	if !ok || sc.Type.Kind() != reflect.Pointer {
		return l
	}
	return z3Layout{impl.Offset, lock.Offset, cc.Offset, simpl.Offset, sc.Offset, true}
}

var errLayout = errors.New("unexpected go-z3 layout")

// disableCtrlC turns Z3's SIGINT handling off for solver z of context ctx.
func disableCtrlC(ctx *z3.Context, z *z3.Solver) error {
	c, zs, mu, err := rawHandles(ctx, z)
	if err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock() // a Z3 error panics through here
	C.disable_ctrl_c(c, zs)
	runtime.KeepAlive(ctx)
	runtime.KeepAlive(z)
	return nil
}
