// Package schema reads DDL — one .sql file, or a migration directory in
// golang-migrate, goose, sql-migrate or dbmate layout — into a
// sqlir.Schema: the columns, keys, foreign keys, CHECK constraints,
// triggers and views of every table (Parse for text, Load for a path).
//
// # Schemas
//
// The DDL reader is dialect-neutral (a tolerant scanner). A CHECK body is
// parsed with the MySQL expression grammar after Postgres casts and quoted
// names are neutralised; when that fails with a syntax error (or the body
// uses "||", which is OR for MySQL but concatenation for Postgres) it is
// parsed with the Postgres grammar instead. A CHECK the Postgres grammar
// parses but that is no row-level constraint (a subquery, another table, …)
// is skipped with a message in sqlir.Schema.Warnings; a CHECK neither
// grammar parses is an error.
package schema
