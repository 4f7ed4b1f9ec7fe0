package frontend

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlparse"
)

// String fields that only ever hold constants. A generic repository
// chooses its table by a field its constructors set:
//
//	func NewWallets(db *sql.DB) *Repo { return &Repo{db: db, table: "wallets"} }
//	…
//	q := fmt.Sprintf(`UPDATE %s SET balance = balance - $1 WHERE id = $2`, r.table)
//
// An entry's receiver is an input, so r.table was any string and the SQL
// text unknown (adv19 probe/genrepo: UNKNOWN on decidable code). An
// unexported string field of a module package can only be written by that
// package's code; when every write of it there is the store of a constant
// into its address, and its address is used for nothing but those stores
// and loads, every value of the field is one of those constants or the
// zero value "" (a value of the type built without the field, inside or
// outside the package). A load of the field is then one of those texts
// (value.alts), and fmt.Sprintf of it gives one SQL text per alternative,
// each verified on its branch. An exported field, a store of anything but
// a constant, an address passed on, a conversion from another struct type
// or a package importing unsafe leaves the field an arbitrary string.

// constFieldTexts returns the texts string field f may hold (see above),
// sorted, "" (its zero value) among them.
func (l *Loaded) constFieldTexts(f *types.Var) ([]string, bool) {
	if f == nil {
		return nil, false
	}
	if l.constFieldCache == nil {
		l.constFieldCache = l.constFields()
	}
	texts, ok := l.constFieldCache[f.Origin()]
	return texts, ok && texts != nil
}

// constFields maps each unexported string field of a module package
// whose stores in module code are all constants to the texts it may
// hold; a field with any other write or use of its address maps to nil.
func (l *Loaded) constFields() map[*types.Var][]string {
	out := map[*types.Var][]string{}
	bad := map[*types.Var]bool{}
	add := func(f *types.Var, text string, ok bool) {
		if !ok {
			bad[f] = true
			return
		}
		out[f] = append(out[f], text)
	}
	for _, fn := range l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch i := instr.(type) {
				case *ssa.FieldAddr:
					f := fieldOf(i)
					if f == nil {
						continue
					}
					// The declared field: a generic type's field of type T
					// is not a string field, even where T is string (its
					// generic code may store any T).
					f = f.Origin()
					if !isStringType(f.Type()) {
						continue
					}
					if f.Exported() || f.Pkg() == nil || !l.modulePackage(f.Pkg()) || importsUnsafe(f.Pkg()) {
						bad[f] = true
						continue
					}
					constFieldUses(i, func(text string, ok bool) { add(f, text, ok) })
				case *ssa.ChangeType:
					markConvertedFields(i.X.Type(), i.Type(), bad)
				case *ssa.Convert:
					markConvertedFields(i.X.Type(), i.Type(), bad)
				}
			}
		}
	}
	result := map[*types.Var][]string{}
	for f, texts := range out {
		if bad[f] {
			result[f] = nil
			continue
		}
		result[f] = dedupeStrings(append(texts, ""))
		sort.Strings(result[f])
	}
	return result
}

// constFieldUses reports each use of fa, the address of a string field:
// a store of a constant gives its text, a load nothing, anything else
// (a non-constant store, the address passed on or stored) ok = false.
func constFieldUses(fa *ssa.FieldAddr, report func(text string, ok bool)) {
	for _, ref := range *fa.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr != fa {
				report("", false)
				continue
			}
			report(constString(r.Val))
		case *ssa.UnOp:
			if r.Op != token.MUL {
				report("", false)
			}
		case *ssa.DebugRef:
		default:
			report("", false)
		}
	}
}

// markConvertedFields marks as not constant-only the fields of the struct
// a conversion from type from to type to gives a value of (also through a
// pointer), when from is another type: the fields' values then come from
// the other type's fields, whose stores are not the field's own.
func markConvertedFields(from, to types.Type, bad map[*types.Var]bool) {
	if types.Identical(from, to) {
		return
	}
	st := structOf(to)
	if st == nil {
		return
	}
	for i := 0; i < st.NumFields(); i++ {
		bad[st.Field(i).Origin()] = true
	}
}

// structOf is the struct type t is, or points to; nil otherwise.
func structOf(t types.Type) *types.Struct {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, _ := t.Underlying().(*types.Struct)
	return st
}

// importsUnsafe reports whether pkg imports unsafe, through which any
// field may be written.
func importsUnsafe(pkg *types.Package) bool {
	for _, p := range pkg.Imports() {
		if p.Path() == "unsafe" {
			return true
		}
	}
	return false
}

// constTexts narrows v, a string loaded from a field that holds one of
// texts, to those texts: its code is assumed to be one of theirs, and it
// carries them as alternatives (see strChoice).
func (t *translator) constTexts(v value, texts []string) value {
	if v.expr == nil || len(texts) > maxAlts {
		return v
	}
	var alts []ir.Expr
	for _, s := range texts {
		alts = append(alts, ir.Eq(v.expr, ir.StringCode(s)))
		if _, num := ir.CanonicalInt(s); !num { // coded as the number itself
			t.p.Strings[ir.StringCode(s).V.String()] = s // (for traces)
		}
	}
	t.emit(&ir.Assume{Cond: ir.Or(alts...), Info: t.info(ir.KindModel, "")})
	v.alts = texts
	v.zeroAlt = true
	return v
}

// zeroSentinel stands for a field's zero value "" in noteZeroSplices'
// second product: no SQL text the program writes holds it.
const zeroSentinel = "\x00zero\x00"

// noteZeroSplices records which of texts, the concatenations of parts in
// product's order, have the zero value of a constant field spliced in:
// those that differ when that zero value is spelled as a sentinel.
func (t *translator) noteZeroSplices(parts []value, texts []string) {
	marked := make([]value, len(parts))
	found := false
	for i, p := range parts {
		marked[i] = p
		if !p.zeroAlt {
			continue
		}
		found = true
		marked[i].alts = nil
		for _, s := range p.alts {
			if s == "" {
				s = zeroSentinel
			}
			marked[i].alts = append(marked[i].alts, s)
		}
	}
	if !found {
		return
	}
	sentinel, _, ok := product(marked, func(ss []string) string { return strings.Join(ss, "") })
	if !ok || len(sentinel) != len(texts) {
		return
	}
	for i := range texts {
		if sentinel[i] != texts[i] {
			if t.zeroSplices == nil {
				t.zeroSplices = map[string]bool{}
			}
			t.zeroSplices[texts[i]] = true
		}
	}
}

// zeroSpliceFails translates Exec of text, which the PostgreSQL parser
// rejected with err, when text has the zero value "" of a constant field
// spliced in (a repository value built without its table): pg_query is
// PostgreSQL's own grammar, so the server rejects the text too, and the
// call returns an error without running anything. Other dialects' parsers
// are not their engines' grammars, and a rejected text the program writes
// itself is not this case: both stay unsupported. So does one in a
// transaction or on a connection (tx other than the pool's 0), which the
// failed statement would leave aborted.
func (t *translator) zeroSpliceFails(kind dblib.Op, tx ir.Tx, text string, err error) (value, bool) {
	if !t.zeroSplices[text] || t.dialect != sqlparse.Postgres || kind != dblib.Exec || tx != 0 || asParseError(err) == nil {
		return value{}, false
	}
	info := t.info(ir.KindSQL, fmt.Sprintf("%s fails: syntax error (the zero value \"\" of a field spliced in)", compactSQL(text)))
	errV := t.errVar()
	aff := t.p.NewVar("rowsAffected", ir.Int, ir.Local)
	t.emit(&ir.Assign{Lhs: []*ir.Var{errV}, Rhs: []ir.Expr{ir.True}, Info: info})
	t.emit(&ir.Havoc{Vars: []*ir.Var{aff}, Info: info})
	return value{tuple: []value{{obj: &object{kind: objResult, affected: aff}}, {expr: errV}}}, true
}
