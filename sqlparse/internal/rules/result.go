package rules

import "github.com/dbverify/dbverify/sqlir"

// Result is a parsed statement with facts about its placeholders.
type Result struct {
	Stmt sqlir.Statement
	// NumParams is the number of parameters: Param indexes run from 0 to
	// NumParams-1, and a Go call must bind this many arguments.
	NumParams int
	// ParamNames[i] is the name (without ':') of parameter i when the query
	// uses named placeholders; nil for "?" and Postgres "$n" placeholders.
	// For Postgres NumParams is the highest n of any "$n" in the query
	// (wherever it occurs, LIMIT included), and $n is parameter n-1.
	ParamNames []string
}
