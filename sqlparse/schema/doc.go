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
//
// # Foreign keys
//
// FOREIGN KEY table constraints and column REFERENCES clauses (MySQL,
// Postgres and SQLite spellings, with MATCH, ON DELETE/UPDATE actions and
// [NOT] DEFERRABLE / INITIALLY) become sqlir.Table.ForeignKeys. A key is
// named as written, or (for DROP) by the engines' defaults:
// <table>_<cols>_fkey (Postgres) and <table>_ibfk_<n> (MySQL). DROP
// CONSTRAINT, DROP FOREIGN KEY and dropping a column of the key remove it;
// renaming a column or table, on either side, follows it; DROP TABLE …
// CASCADE removes the keys that reference the dropped table. A foreign key
// the reader cannot follow (an expression among its columns) is skipped
// with a warning.
package schema
