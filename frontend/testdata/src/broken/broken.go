// Package broken does not compile.
package broken

import "database/sql"

// Oops returns a string as an int.
func Oops(db *sql.DB) int {
	return "not an int"
}
