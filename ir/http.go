package ir

// Where an HTTP handler's value comes from in the request
// (HTTPSource.Kind).
const (
	HTTPPath   = "path"   // a path parameter: r.PathValue("id"), chi.URLParam, mux.Vars(r)["id"], gin/echo c.Param
	HTTPQuery  = "query"  // a query parameter: r.URL.Query().Get, gin c.Query, echo c.QueryParam
	HTTPForm   = "form"   // a form field: r.FormValue, gin c.PostForm, echo c.FormValue
	HTTPHeader = "header" // a header: r.Header.Get, gin c.GetHeader
	HTTPBody   = "body"   // a field of a JSON body decoded into a Go value
)

// An HTTPSource says which part of the request a variable holds: the
// text of parameter Name of kind Kind, or (Parse set) a result of the
// function Parse applied to that text, whose variable is Raw.
type HTTPSource struct {
	Kind string // HTTPPath, HTTPQuery, HTTPForm, HTTPHeader, HTTPBody
	// Name is the parameter's name ("id"), a header's, or a body field's
	// JSON path ("amount", "payer.id").
	Name string
	// Parse is the function that turned the text into the variable's
	// value ("strconv.ParseInt"), "" for the text itself; Raw is the
	// text's variable and Result the parse's result the variable holds
	// (0: the value, 1: the error).
	Parse  string
	Raw    *Var
	Result int
	// NonNil marks the variable that says whether a pointer field of a
	// JSON body is non-nil (false: the body held null or lacked the
	// field); the field's value is another variable of the same Name.
	NonNil bool
}
