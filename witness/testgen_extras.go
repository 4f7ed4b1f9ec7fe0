package witness

import "strings"

// testExtras are what an emitted test adds for entries that are not plain
// calls on a database handle: HTTP handlers (the request built from the
// run's inputs, as the witness driver builds it; the route vars of
// gorilla/mux and chi when the package imports them) and entries taking an
// open *sql.Tx or *sqlx.Tx (begun before the call, committed after it).
//
// Gin and echo handlers are served through a new router of their
// framework (routedCall); JSON: the call builds a typed request body
// (jsonBodyStmt).
type testExtras struct {
	HTTP, Mux, Chi, Tx, Txx, Gin, Echo, JSON bool
}

// extrasFor reads the extras a call needs from its text and the imports of
// the entry's package.
func extrasFor(call string, imports map[string]bool) testExtras {
	e := testExtras{
		Tx:   strings.Contains(call, "h.Tx(ctx)"),
		Txx:  strings.Contains(call, "h.Txx(ctx)"),
		Gin:  strings.Contains(call, "zzrtServeGin("),
		Echo: strings.Contains(call, "zzrtServeEcho("),
		JSON: strings.Contains(call, "in.WithJSON(") || strings.Contains(call, "zzrtJSONBytes("),
	}
	e.HTTP = e.Gin || e.Echo || strings.Contains(call, "zzrtRequest(") || strings.Contains(call, "zzrtServeRoute(")
	e.Mux = e.HTTP && imports["github.com/gorilla/mux"]
	e.Chi = e.HTTP && imports["github.com/go-chi/chi/v5"]
	return e
}

// testExtraImports are the extras' imports.
func (e testExtras) imports() []string {
	var out []string
	if e.HTTP {
		out = append(out, `"io"`, `"net/http"`, `"net/http/httptest"`, `"net/url"`, `"regexp"`)
	}
	if e.Mux {
		out = append(out, `zzmux "github.com/gorilla/mux"`)
	}
	if e.Chi {
		out = append(out, `zzchi "github.com/go-chi/chi/v5"`)
	}
	if e.Gin || e.Echo {
		out = append(out, `"errors"`)
	}
	if e.Gin {
		out = append(out, `zzgin "github.com/gin-gonic/gin"`)
	}
	if e.Echo {
		out = append(out, `zzecho "github.com/labstack/echo/v4"`)
	}
	if e.JSON {
		out = append(out, `"encoding/json"`)
	}
	return out
}

// extrasTemplate defines "extras", the helpers an emitted test's call
// uses besides the inputs'.
const extrasTemplate = `
{{- if or .Extras.Tx .Extras.Txx}}

// Tx begins the transaction the entry takes; finish commits it after the
// call (as a caller that runs the entry in its own transaction does).
func (h *zzrtHandles) Tx(ctx context.Context) *sql.Tx {
	tx, err := h.DB.BeginTx(ctx, nil)
	if err != nil {
		panic(fmt.Sprintf("beginning the entry's transaction: %v", err))
	}
	h.open = append(h.open, tx.Commit)
	return tx
}
{{- end}}
{{- if .Extras.Txx}}

func (h *zzrtHandles) Txx(ctx context.Context) *sqlx.Tx {
	tx, err := h.X.BeginTxx(ctx, nil)
	if err != nil {
		panic(fmt.Sprintf("beginning the entry's transaction: %v", err))
	}
	h.open = append(h.open, tx.Commit)
	return tx
}
{{- end}}
{{- if or .Extras.Tx .Extras.Txx}}

func (h *zzrtHandles) finish() error {
	for _, commit := range h.open {
		if err := commit(); err != nil && err != sql.ErrTxDone {
			return fmt.Errorf("committing the entry's transaction: %w", err)
		}
	}
	return nil
}
{{- end}}
{{- if .Extras.HTTP}}

// zzrtRequest is the handler's request, built from the inputs: path
// parameters, query, form or JSON body.
func zzrtRequest(ctx context.Context, in zzrtInputs) *http.Request {
	query, form := url.Values{}, url.Values{}
	for k := range in {
		switch {
		case strings.HasPrefix(k, "$http.query."):
			query.Set(strings.TrimPrefix(k, "$http.query."), in.String(k))
		case strings.HasPrefix(k, "$http.form."):
			form.Set(strings.TrimPrefix(k, "$http.form."), in.String(k))
		}
	}
	method := in.String("$http.method")
	if method == "" {
		method = http.MethodPost
	}
	var body io.Reader = http.NoBody
	contentType := ""
	switch {
	case len(form) > 0:
		body, contentType = strings.NewReader(form.Encode()), "application/x-www-form-urlencoded"
	case in["$http.body"] != "":
		body, contentType = strings.NewReader(in["$http.body"]), "application/json"
	}
	target := "/"
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	req := httptest.NewRequest(method, target, body).WithContext(ctx)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	path := in.pathParams()
	for k, v := range path {
		req.SetPathValue(k, v)
	}
{{- if .Extras.Mux}}
	req = zzmux.SetURLVars(req, path)
{{- end}}
{{- if .Extras.Chi}}
	rc := zzchi.NewRouteContext()
	for k, v := range path {
		rc.URLParams.Add(k, v)
	}
	req = req.WithContext(context.WithValue(req.Context(), zzchi.RouteCtxKey, rc))
{{- end}}
	return req
}

func (in zzrtInputs) pathParams() map[string]string {
	out := map[string]string{}
	for k := range in {
		if strings.HasPrefix(k, "$http.path.") {
			out[strings.TrimPrefix(k, "$http.path.")] = in.String(k)
		}
	}
	return out
}

var zzrtRouteParam = regexp.MustCompile(` + "`" + `\{([A-Za-z_][A-Za-z0-9_]*)(\.\.\.)?\}` + "`" + `)

// zzrtServeRoute serves the request for the route pattern through router.
func zzrtServeRoute(router http.Handler, pattern string, ctx context.Context, in zzrtInputs) {
	req := zzrtRequest(ctx, in)
	path := pattern
	if method, rest, ok := strings.Cut(pattern, " "); ok {
		req.Method, path = method, strings.TrimSpace(rest)
	}
	if i := strings.Index(path, "/"); i > 0 {
		path = path[i:]
	}
	params := in.pathParams()
	path = zzrtRouteParam.ReplaceAllStringFunc(path, func(p string) string {
		if v, ok := params[zzrtRouteParam.FindStringSubmatch(p)[1]]; ok {
			return url.PathEscape(v)
		}
		return "0"
	})
	path = strings.TrimSuffix(path, "{$}")
	req.URL.Path, req.RequestURI = path, path
	router.ServeHTTP(httptest.NewRecorder(), req)
}
{{- end}}
{{- if or .Extras.Gin .Extras.Echo}}

// zzrtNotServed: the router did not call the handler (the test would
// check nothing).
var zzrtNotServed = errors.New("the router did not call the handler")

// zzrtRouteRequest is the inputs' request for a gin or echo route
// ("/members/:id/redeem"), its path parameters filled in (0 for one the
// inputs lack).
func zzrtRouteRequest(ctx context.Context, in zzrtInputs, method, route string) *http.Request {
	req := zzrtRequest(ctx, in)
	params := in.pathParams()
	segs := strings.Split(route, "/")
	for i, s := range segs {
		if s == "" || s[0] != ':' && s[0] != '*' {
			continue
		}
		name := s[1:]
		if s == "*" {
			name = "*"
		}
		v, ok := params[name]
		if !ok {
			v = "0"
		}
		segs[i] = url.PathEscape(v)
	}
	path := strings.Join(segs, "/")
	req.Method, req.URL.Path, req.RequestURI = method, path, path
	if req.URL.RawQuery != "" {
		req.RequestURI += "?" + req.URL.RawQuery
	}
	return req
}

// zzrtAnswered is the handler's error, or the error status it answered.
func zzrtAnswered(err error, rec *httptest.ResponseRecorder) error {
	if err == nil && rec.Code >= http.StatusBadRequest {
		return fmt.Errorf("answered %d %s", rec.Code, strings.TrimSpace(rec.Body.String()))
	}
	return err
}
{{- end}}
{{- if .Extras.Gin}}

// zzrtServeGin registers handle for the method and route on a new gin
// router (test mode, no middleware), serves the inputs' request through
// it and returns handle's error.
func zzrtServeGin(ctx context.Context, in zzrtInputs, method, route string, handle func(*zzgin.Context) error) error {
	zzgin.SetMode(zzgin.TestMode)
	router := zzgin.New()
	served, err := false, error(nil)
	router.Handle(method, route, func(c *zzgin.Context) {
		served = true
		err = handle(c)
	})
	rec := httptest.NewRecorder()
	router.ServeHTTP(rec, zzrtRouteRequest(ctx, in, method, route))
	if !served {
		return fmt.Errorf("%w: %s %s answered %d", zzrtNotServed, method, route, rec.Code)
	}
	return zzrtAnswered(err, rec)
}
{{- end}}
{{- if .Extras.Echo}}

// zzrtServeEcho registers handle for the method and route on a new echo
// router (no middleware), serves the inputs' request through it and
// returns handle's error.
func zzrtServeEcho(ctx context.Context, in zzrtInputs, method, route string, handle func(zzecho.Context) error) error {
	router := zzecho.New()
	served, err := false, error(nil)
	router.Add(method, route, func(c zzecho.Context) error {
		served = true
		err = handle(c)
		return err
	})
	rec := httptest.NewRecorder()
	router.ServeHTTP(rec, zzrtRouteRequest(ctx, in, method, route))
	if !served {
		return fmt.Errorf("%w: %s %s answered %d", zzrtNotServed, method, route, rec.Code)
	}
	return zzrtAnswered(err, rec)
}
{{- end}}
{{- if .Extras.JSON}}

func (in zzrtInputs) Has(p string) bool {
	_, ok := in[p]
	return ok
}

// WithJSON is the inputs with the request's JSON body made of v, the
// value of the Go type the handler decodes its body into.
func (in zzrtInputs) WithJSON(v any) zzrtInputs {
	if _, ok := in["$http.body"]; !ok {
		return in
	}
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("marshalling the request's JSON body: %v", err))
	}
	out := make(zzrtInputs, len(in))
	for k, x := range in {
		out[k] = x
	}
	out["$http.body"] = string(data)
	return out
}

func zzrtJSONBytes[T ~[]byte](in zzrtInputs, def T) T {
	if s, ok := in["$http.body"]; ok {
		return T(s)
	}
	return def
}

func zzrtAlloc[T any](p **T) *T {
	if *p == nil {
		*p = new(T)
	}
	return *p
}
{{- end}}`
