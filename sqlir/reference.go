package sqlir

// A Reference is a referential constraint written as a condition with a
// subquery, "Table.Column IN (SELECT RefColumn FROM RefTable)" or
// "EXISTS (SELECT 1 FROM RefTable WHERE RefTable.RefColumn =
// Table.Column)": every row of Table whose Column is not NULL has a row of
// RefTable whose RefColumn equals it. Names are as written.
//
// A NULL Column keeps the IN form (NULL IN (…) is NULL, which a CHECK
// accepts, as a FOREIGN KEY accepts NULL) and breaks the EXISTS form (no
// row has RefColumn = NULL): NullBreaks is set for the EXISTS form.
type Reference struct {
	Table, Column, RefTable, RefColumn string
	NullBreaks                         bool
}
