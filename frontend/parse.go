package frontend

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// errUnsupportedSQL marks SQL that parses in some dialect but that the
// configured one does not model yet; it makes a verdict UNKNOWN, not a load
// error.
type errUnsupportedSQL struct{ why string }

func (e *errUnsupportedSQL) Error() string { return e.why }

// parseIn parses query in dialect d once and caches the result.
func (l *Loaded) parseIn(d sqlparse.Dialect, query string) (sqlir.Statement, error) {
	key := parseKey{d, query}
	if r, ok := l.parsed[key]; ok {
		return r.stmt, r.err
	}
	var r parseResult
	if res, err := sqlparse.ParseDetailed(d, query); err != nil {
		r.err = err
	} else {
		r.stmt, r.names, r.numParams = res.Stmt, res.ParamNames, res.NumParams
	}
	if r.err != nil && d == sqlparse.Postgres && strings.Contains(query, "?") {
		// `?` placeholders rebound to $n at run time (sqlx's Rebind).
		if stmt, err := sqlparse.Parse(d, dblib.RebindDollar(query)); err == nil {
			r.stmt, r.err = stmt, nil
		}
	}
	if pe := asParseError(r.err); pe != nil && pe.Msg == "more than one statement in one query" {
		// Valid SQL (a script), just not one statement: not modelled.
		r.err = &errUnsupportedSQL{why: "several statements in one query (" + pe.Error() + ")"}
	}
	if errors.Is(r.err, sqlparse.ErrUnsupportedDialect) {
		r.err = &errUnsupportedSQL{why: r.err.Error()}
	}
	if r.err == nil {
		if o, ok := r.stmt.(*sqlir.Other); ok {
			if txSettings.MatchString(o.Text) {
				r.stmt = &sqlir.TxControl{Kind: sqlir.TxSettings}
			} else {
				r.err = &errUnsupportedSQL{why: fmt.Sprintf("SQL statement not modelled: %s", o.Text)}
				r.stmt = nil
			}
		}
	}
	l.parsed[key] = r
	return r.stmt, r.err
}

// txSettings matches statements that set the characteristics of a
// transaction or a session's timeouts — SET TRANSACTION ISOLATION LEVEL …,
// SET LOCAL/SESSION TRANSACTION …, SET SESSION CHARACTERISTICS AS
// TRANSACTION …, SET [LOCAL|SESSION] statement_timeout/lock_timeout/
// idle_in_transaction_session_timeout/innodb_lock_wait_timeout: they change
// no row. (The isolation level they set is read from the code by
// --concurrent, pipeline/isolation.go.)
var txSettings = regexp.MustCompile(`(?i)^\s*SET\s+(?:(?:LOCAL|SESSION|GLOBAL)\s+)?(?:TRANSACTION\b|CHARACTERISTICS\s+AS\s+TRANSACTION\b|(?:statement_timeout|lock_timeout|idle_in_transaction_session_timeout|innodb_lock_wait_timeout)\b)`)

// placeholders returns the named placeholders of query (nil for "?" and
// "$n") and the number of parameters, from the parse cache.
func (l *Loaded) placeholders(d sqlparse.Dialect, query string) ([]string, int, error) {
	if _, err := l.parseIn(d, query); err != nil {
		return nil, 0, err
	}
	r := l.parsed[parseKey{d, query}]
	return r.names, r.numParams, nil
}

func asParseError(err error) *sqlparse.ParseError {
	var pe *sqlparse.ParseError
	if errors.As(err, &pe) {
		return pe
	}
	return nil
}

// sqlFunction matches a function call in an expression's text.
var sqlFunction = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_.]*)\s*\(`)

// builtinSQL lists functions and keywords that read no table and write
// nothing (lower case, without schema).
var builtinSQL = wordSet(`
		abs avg bit_length btrim cardinality case cast ceil ceiling char_length character_length chr
		coalesce concat concat_ws count cume_dist current_date current_time current_timestamp curdate curtime
		date date_add date_format date_part date_sub date_trunc datediff day dayofweek decode dense_rank
		encode exists exp extract first_value floor format from_unixtime gen_random_uuid generate_series
		greatest hour if ifnull in initcap instr interval isnull json_agg json_array json_build_array
		json_build_object json_extract json_object jsonb_agg jsonb_build_array jsonb_build_object
		jsonb_set lag last_value lead least left length ln localtime localtimestamp locate log log10
		lower lpad ltrim make_interval max md5 min minute mod month now nullif nvl octet_length over
		position pow power random rank regexp_replace repeat replace reverse right round row_number
		rpad rtrim second sha1 sha2 sign sqrt statement_timestamp string_agg strftime substr
		substring sum timestamp timestampdiff to_char to_date to_number to_timestamp transaction_timestamp
		trim trunc truncate unix_timestamp unixepoch upper utc_timestamp uuid uuid_generate_v4 values
		week year any all some array array_agg array_length unnest row nextval currval setval
		clock_timestamp age datetime julianday printf char int integer bigint numeric decimal float real
		text varchar boolean filter within group partition`)

// wordSet returns the set of the words of s.
func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(s) {
		out[w] = true
	}
	return out
}

// userFunctions returns the functions stmt calls that are not SQL
// built-ins: user-defined functions may read or write any table.
func userFunctions(stmt sqlir.Statement) []string {
	var out []string
	seen := map[string]bool{}
	sqlir.RewriteStatement(stmt, func(e sqlir.Expr) (sqlir.Expr, bool) {
		u, ok := e.(*sqlir.Unknown)
		if !ok {
			return nil, false
		}
		for _, m := range sqlFunction.FindAllStringSubmatch(u.Text, -1) {
			name := strings.ToLower(m[1])
			if i := strings.LastIndex(name, "."); i >= 0 {
				if strings.HasPrefix(name, "pg_catalog.") {
					name = name[i+1:]
				}
			}
			if !builtinSQL[name] && !seen[name] {
				seen[name] = true
				out = append(out, m[1])
			}
		}
		return nil, false
	})
	return out
}
