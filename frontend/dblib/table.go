package dblib

import (
	"slices"
	"strings"
)

// on returns the table entries for the methods names on each receiver in
// recvs ("*database/sql.DB", "github.com/jackc/pgx/v5.Tx" for an
// interface): the keys are the methods' qualified names. A name starting
// with Must panics instead of returning an error.
func on(recvs []string, names map[string]Op) map[string]Method {
	out := map[string]Method{}
	for _, r := range recvs {
		for name, op := range names {
			out["("+r+")."+name] = Method{Op: op, Must: strings.HasPrefix(name, "Must")}
		}
	}
	return out
}

// merge returns the union of tables (a later entry wins).
func merge(tables ...map[string]Method) map[string]Method {
	out := map[string]Method{}
	for _, t := range tables {
		for k, v := range t {
			out[k] = v
		}
	}
	return out
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
