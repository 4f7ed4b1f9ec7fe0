package sqlir

import "fmt"

// ForeignKey is a FOREIGN KEY constraint of a table (or a column's
// REFERENCES clause): in every row whose Columns are all non-NULL, their
// values equal the RefColumns of some row of RefTable.
//
// The schema records what the DDL declares. Whether the engine enforces it
// is not part of the record: SQLite checks foreign keys only after PRAGMA
// foreign_keys = ON, and MySQL's MyISAM tables never do.
type ForeignKey struct {
	// Name is the constraint's name as written ("" when anonymous).
	Name     string
	Columns  []string
	RefTable string
	// RefColumns are the referenced columns; nil when the DDL names none
	// (the parent's primary key).
	RefColumns []string
	OnDelete   FKAction
	OnUpdate   FKAction
	// Deferrable is set for DEFERRABLE constraints: checked at COMMIT when
	// deferred, so a transaction may break them in between.
	Deferrable bool
	// Inline is set for a column's own REFERENCES clause (not a FOREIGN
	// KEY constraint): MySQL up to 8.4 parses it and creates no key.
	Inline bool
}

// FKAction is what a write to the referenced row does to referencing rows.
type FKAction int

// The referential actions. The zero value is NO ACTION, the default.
const (
	FKNoAction   FKAction = iota // NO ACTION: the write fails if rows still refer
	FKRestrict                   // RESTRICT: as NO ACTION, checked at once
	FKCascade                    // CASCADE: delete (or update) the referencing rows too
	FKSetNull                    // SET NULL: set the referencing columns to NULL
	FKSetDefault                 // SET DEFAULT: set them to their defaults
)

// String returns the action as SQL spells it ("NO ACTION", "CASCADE", …).
func (a FKAction) String() string {
	switch a {
	case FKNoAction:
		return "NO ACTION"
	case FKRestrict:
		return "RESTRICT"
	case FKCascade:
		return "CASCADE"
	case FKSetNull:
		return "SET NULL"
	case FKSetDefault:
		return "SET DEFAULT"
	}
	return fmt.Sprintf("FKAction(%d)", int(a))
}

// ChangesChild reports whether a write of kind op ("DELETE" or "UPDATE")
// to the referenced table makes fk's referential action change the
// referencing rows' values: ON DELETE SET NULL / SET DEFAULT, ON UPDATE
// CASCADE / SET NULL / SET DEFAULT. (ON DELETE CASCADE deletes the
// referencing rows, which changes no value a row constraint reads.)
func (fk ForeignKey) ChangesChild(op string) bool {
	switch op {
	case "DELETE":
		return fk.OnDelete == FKSetNull || fk.OnDelete == FKSetDefault
	case "UPDATE":
		return fk.OnUpdate == FKCascade || fk.OnUpdate == FKSetNull || fk.OnUpdate == FKSetDefault
	}
	return false
}

// ActionText spells fk's action on a write of kind op, as the DDL does
// ("ON DELETE SET NULL").
func (fk ForeignKey) ActionText(op string) string {
	a := fk.OnUpdate
	if op == "DELETE" {
		a = fk.OnDelete
	}
	return "ON " + op + " " + a.String()
}
