// Command pantry tracks a community pantry's shelves in SQLite; the driver
// is registered here, package pantry opens it by name.
package main

import (
	"log"
	"os"

	_ "modernc.org/sqlite"

	"example.com/corpus/trust/sqlite_named_args_unsafe/pantry"
)

func main() {
	p, err := pantry.Open(os.Getenv("PANTRY_DB"))
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("pantry ready: %v", p != nil)
}
