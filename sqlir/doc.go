// Package sqlir is the small SQL IR that every dialect's parser produces:
// the four statement kinds a constraint can depend on (SELECT, UPDATE,
// INSERT, DELETE) plus transaction control, over a tiny expression language
// of columns, placeholders, literals, arithmetic, comparisons and boolean
// connectives. Anything else in an expression becomes Unknown, which the row
// model treats as an arbitrary value (havoc); anything else as a statement
// becomes Other, which the frontend reports.
//
// Placeholders are numbered from 0 in the order their values are bound:
// MySQL's "?" by position, Postgres's "$n" as n-1.
package sqlir
