package main

import (
	"log"

	"example.com/inmain/store"
	_ "modernc.org/sqlite"
)

func main() {
	db, err := store.Open("w.db")
	if err != nil {
		log.Fatal(err)
	}
	if err := store.Withdraw(db, 1, 5); err != nil {
		log.Fatal(err)
	}
}
