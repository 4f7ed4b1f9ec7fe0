package frontend

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/frontend/sqlparse"
	"github.com/dbverify/dbverify/sqlir"
)

// errUnsupportedSQL marks SQL that parses in some dialect but that the
// configured one does not model yet; it makes a verdict UNKNOWN, not a load
// error.
type errUnsupportedSQL struct{ why string }

func (e *errUnsupportedSQL) Error() string { return e.why }

// parse parses query once and caches the result.
func (l *Loaded) parse(query string) (sqlir.Statement, error) {
	if r, ok := l.parsed[query]; ok {
		return r.stmt, r.err
	}
	var r parseResult
	r.stmt, r.err = sqlparse.Parse(l.Dialect, query)
	if r.err != nil && l.Dialect == sqlparse.Postgres && strings.Contains(query, "?") {
		// `?` placeholders rebound to $n at run time (sqlx's Rebind).
		if stmt, err := sqlparse.Parse(l.Dialect, rebindDollar(query)); err == nil {
			r.stmt, r.err = stmt, nil
		}
	}
	if errors.Is(r.err, sqlparse.ErrUnsupportedDialect) {
		r.err = &errUnsupportedSQL{why: r.err.Error()}
	}
	if r.err == nil {
		if o, ok := r.stmt.(*sqlir.Other); ok {
			r.err = &errUnsupportedSQL{why: fmt.Sprintf("SQL statement not modelled: %s", o.Text)}
			r.stmt = nil
		}
	}
	l.parsed[query] = r
	return r.stmt, r.err
}

func asParseError(err error) *sqlparse.ParseError {
	var pe *sqlparse.ParseError
	if errors.As(err, &pe) {
		return pe
	}
	return nil
}
