// Command tipjar serves the tip jar of a streaming site; the SQLite driver
// is registered here, the store in package tips opens it by name.
package main

import (
	"log"
	"os"

	_ "modernc.org/sqlite"

	"example.com/corpus/trust/sqlite_tip_jar_unsafe/tips"
)

func main() {
	jar, err := tips.Open(os.Getenv("TIPJAR_DB"))
	if err != nil {
		log.Fatal(err)
	}
	serve(jar)
}

// serve would hand the jar to the HTTP handlers; this trimmed-down command
// only reports it is ready.
func serve(jar *tips.Jar) { log.Printf("tip jar ready: %v", jar != nil) }
