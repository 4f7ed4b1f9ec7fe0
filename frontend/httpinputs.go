package frontend

import (
	"go/types"
	"reflect"
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// HTTP inputs: the results of a handler's request accessors (pure.go) are
// marked with the part of the request they hold (ir.HTTPSource), and so
// are the values a parser computes from them and the fields a JSON body
// is decoded into, so that a trace shows `path parameter "id" = "7"`
// rather than the accessor call.

// httpAccessors are the request accessors of pureFuncs and pureMethods by
// the part of the request they read; the parameter's name is their
// second argument (after the request or the receiver).
var httpAccessors = map[string]string{
	"(*net/http.Request).PathValue":                    ir.HTTPPath,
	"github.com/go-chi/chi/v5.URLParam":                ir.HTTPPath,
	"github.com/go-chi/chi.URLParam":                   ir.HTTPPath,
	"(*github.com/gin-gonic/gin.Context).Param":        ir.HTTPPath,
	"(github.com/labstack/echo/v4.Context).Param":      ir.HTTPPath,
	"(*github.com/gin-gonic/gin.Context).Query":        ir.HTTPQuery,
	"(*github.com/gin-gonic/gin.Context).DefaultQuery": ir.HTTPQuery,
	"(github.com/labstack/echo/v4.Context).QueryParam": ir.HTTPQuery,
	"(*net/http.Request).FormValue":                    ir.HTTPForm,
	"(*net/http.Request).PostFormValue":                ir.HTTPForm,
	"(*github.com/gin-gonic/gin.Context).PostForm":     ir.HTTPForm,
	"(github.com/labstack/echo/v4.Context).FormValue":  ir.HTTPForm,
	"(net/http.Header).Get":                            ir.HTTPHeader,
	"(*github.com/gin-gonic/gin.Context).GetHeader":    ir.HTTPHeader,
	"(*github.com/gofiber/fiber/v2.Ctx).Params":        ir.HTTPPath,
	"(*github.com/gofiber/fiber/v2.Ctx).Query":         ir.HTTPQuery,
	"(*github.com/gofiber/fiber/v2.Ctx).FormValue":     ir.HTTPForm,
	"(*github.com/gofiber/fiber/v2.Ctx).Get":           ir.HTTPHeader,
}

// isMuxVars reports whether fn (its go/ssa name) is gorilla/mux's Vars,
// whose map holds the path parameters.
func isMuxVars(fn string) bool { return fn == "github.com/gorilla/mux.Vars" }

// markHTTP marks out, the result of pure function name on args, with the
// part of the request it holds: an accessor's parameter, or a function
// (strconv.ParseInt, strings.TrimSpace) applied to one.
func (t *translator) markHTTP(name string, args []value, out value) {
	if name == "(*net/url.URL).Query" && out.obj != nil {
		if t.queryValues == nil {
			t.queryValues = map[*object]bool{}
		}
		t.queryValues[out.obj] = true
		if n, ok := out.obj.length.(*ir.Var); ok {
			n.Internal = true // (the number of parameters: shown only if tested)
		}
		return
	}
	if isMuxVars(name) && out.obj != nil {
		if n, ok := out.obj.length.(*ir.Var); ok {
			n.Internal = true
		}
		return
	}
	kind := httpAccessors[name]
	if name == "(net/url.Values).Get" && len(args) > 0 && args[0].obj != nil && t.queryValues[args[0].obj] {
		kind = ir.HTTPQuery
	}
	if kind != "" {
		if kind == ir.HTTPHeader && len(args) > 0 && args[0].obj != nil {
			if n, ok := args[0].obj.length.(*ir.Var); ok {
				n.Internal = true // (len(r.Header): shown only if tested)
			}
		}
		if len(args) > 1 && args[1].strKnown {
			t.markHTTPValue(out, &ir.HTTPSource{Kind: kind, Name: args[1].str})
		}
		return
	}
	if requestAccessor(name) || len(args) == 0 {
		return
	}
	from, ok := args[0].expr.(*ir.Var)
	if !ok || from.HTTP == nil {
		return
	}
	raw, parse := from, name
	if from.HTTP.Raw != nil {
		raw, parse = from.HTTP.Raw, from.HTTP.Parse+", then "+name
	}
	t.markHTTPValue(out, &ir.HTTPSource{Kind: from.HTTP.Kind, Name: from.HTTP.Name, Parse: parse, Raw: raw})
}

// markHTTPValue marks the variable of out, or each of its results (a
// parse's value and error), with src.
func (t *translator) markHTTPValue(out value, src *ir.HTTPSource) {
	if v, ok := out.expr.(*ir.Var); ok && v.HTTP == nil {
		v.HTTP = src
	}
	for i, p := range out.tuple {
		if v, ok := p.expr.(*ir.Var); ok && v.HTTP == nil {
			s := *src
			s.Result = i
			v.HTTP = &s
		}
	}
}

// bodyDecoders are the calls that decode a request's JSON body into the
// value their argument points to, by go/ssa name: the argument's index.
var bodyDecoders = map[string]int{
	"(*encoding/json.Decoder).Decode":                    1,
	"encoding/json.Unmarshal":                            1,
	"(*github.com/gin-gonic/gin.Context).ShouldBindJSON": 1,
	"(*github.com/gin-gonic/gin.Context).BindJSON":       1,
	"(*github.com/gin-gonic/gin.Context).ShouldBind":     1,
	"(*github.com/gin-gonic/gin.Context).Bind":           1,
	"(*github.com/gofiber/fiber/v2.Ctx).BodyParser":      1,
}

// markBody marks the scalar fields of the value a body decoder (callee
// fn, its go/ssa name) writes with their JSON paths, before the call
// havocs them.
func (t *translator) markBody(fn string, args []value) {
	i, ok := bodyDecoders[fn]
	if !ok || i >= len(args) {
		return
	}
	a := args[i]
	if a.obj == nil || a.obj.kind != objPtr || a.obj.cell == nil {
		return
	}
	t.markBodyCell(a.obj.cell, "", 0)
}

// jsonDecoders are the body decoders of bodyDecoders that read JSON
// only: encoding/json refuses NaN and ±Inf (not JSON numbers), and
// "NaN" for a float field. (gin's Bind and ShouldBind read a form by
// its content type, whose strconv.ParseFloat takes "NaN".)
var jsonDecoders = map[string]bool{
	"(*encoding/json.Decoder).Decode":                    true,
	"encoding/json.Unmarshal":                            true,
	"(*github.com/gin-gonic/gin.Context).ShouldBindJSON": true,
	"(*github.com/gin-gonic/gin.Context).BindJSON":       true,
}

// jsonNotNaN states, after a JSON decoder (callee fn) has written the
// value its argument points to, that no float field of it is NaN.
func (t *translator) jsonNotNaN(fn string, args []value) {
	i, ok := bodyDecoders[fn]
	if !ok || !jsonDecoders[fn] || i >= len(args) {
		return
	}
	a := args[i]
	if a.obj == nil || a.obj.kind != objPtr || a.obj.cell == nil {
		return
	}
	var notNaN []ir.Expr
	t.walkScalars(a.obj.cell, 0, func(v *ir.Var) {
		if v.Type != ir.Real {
			return
		}
		f, ok := t.nan.flags[v]
		if !ok {
			f = t.nanSource(v)
		}
		notNaN = append(notNaN, ir.Not(f))
	})
	if len(notNaN) > 0 {
		t.emit(&ir.Assume{Cond: ir.And(notNaN...), Info: t.info(ir.KindModel, "")})
	}
}

// walkScalars calls f on the scalar variables of cell c, fields
// included, to a small depth.
func (t *translator) walkScalars(c *cell, depth int, f func(*ir.Var)) {
	if c == nil || depth > 4 {
		return
	}
	if c.v != nil {
		f(c.v)
		return
	}
	if st, ok := c.typ.Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			t.walkScalars(t.field(c, i), depth+1, f)
		}
	}
}

// markDecoded marks the scalar fields of the values args point to as
// fields of the request's body: the arguments of a call that decodes the
// request into them (gin's ShouldBindJSON, echo's Context.Bind).
func (t *translator) markDecoded(args []value) {
	for _, a := range args {
		if a.obj != nil && a.obj.kind == objPtr && a.obj.cell != nil {
			t.markBodyCell(a.obj.cell, "", 0)
		}
	}
}

// isEchoBind reports whether m is echo's Context.Bind, which decodes the
// request (its JSON body, for the fields without param or query tags)
// into its argument.
func isEchoBind(m *types.Func) bool {
	return m.Pkg() != nil && m.Pkg().Path() == "github.com/labstack/echo/v4" && m.Name() == "Bind"
}

// markBodyCell marks the scalars of c, at JSON path path, as body fields.
func (t *translator) markBodyCell(c *cell, path string, depth int) {
	if c == nil || depth > 4 {
		return
	}
	if c.v != nil {
		if c.v.HTTP == nil && path != "" {
			c.v.HTTP = &ir.HTTPSource{Kind: ir.HTTPBody, Name: path}
		}
		return
	}
	if nn, ok := c.ref.nonNil.(*ir.Var); ok && c.refSet && c.ref.obj != nil && c.ref.obj.kind == objPtr && c.ref.obj.cell != nil {
		// A pointer to a scalar the decoder allocates (decodedPointers):
		// its target at the same path, and whether the body held it.
		if nn.HTTP == nil && path != "" {
			nn.HTTP = &ir.HTTPSource{Kind: ir.HTTPBody, Name: path, NonNil: true}
		}
		t.markBodyCell(c.ref.obj.cell, path, depth+1)
		return
	}
	st, ok := c.typ.Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i := 0; i < st.NumFields(); i++ {
		name := jsonName(st.Field(i).Name(), st.Tag(i))
		if name == "-" || !st.Field(i).Exported() {
			continue
		}
		if path != "" {
			name = path + "." + name
		}
		t.markBodyCell(t.field(c, i), name, depth+1)
	}
}

// jsonName is the name encoding/json gives a field with tag tag.
func jsonName(field, tag string) string {
	name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
	if name == "" {
		return field
	}
	return name
}
