// Package rules holds what the MySQL and Postgres adapters of sqlparse
// share, written once: the dialect-independent rewrites of SQL into sqlir
// (simple CASE, COALESCE, NULLIF, IF, ABS, GREATEST/LEAST under a NULL
// policy, the WHERE of a multi-table write, RETURNING items of a joined
// write, the table of a constraint), the error and result types, Format,
// and helpers for scanning query text.
//
// It is a separate, internal package because sqlparse imports both
// adapters to dispatch Parse; the adapters importing sqlparse for these
// rules would be an import cycle. sqlparse re-exports the types callers
// see (Result, ParseError, UnsupportedError) as aliases.
package rules
