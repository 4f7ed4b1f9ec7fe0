package witness

import (
	"reflect"
	"testing"
)

func TestExportedName(t *testing.T) {
	tests := []struct{ key, want string }{
		{"Withdraw", "Withdraw"},
		{"(*InventoryRepo).Reserve", "InventoryRepoReserve"},
		{"(Store).apply_fee", "StoreApplyFee"},
	}
	for _, tc := range tests {
		if got := exportedName(tc.key); got != tc.want {
			t.Errorf("exportedName(%q) = %q, want %q", tc.key, got, tc.want)
		}
	}
}

func TestSplitStatements(t *testing.T) {
	tests := []struct {
		ddl  string
		want []string
	}{
		{"CREATE TABLE a (id INT);\nCREATE TABLE b (id INT);\n", []string{"CREATE TABLE a (id INT)", "CREATE TABLE b (id INT)"}},
		{"-- accounts\nCREATE TABLE a (\n  id INT\n);", []string{"-- accounts\nCREATE TABLE a (\n  id INT\n)"}},
		{"-- only a comment;\n\n", nil},
	}
	for _, tc := range tests {
		if got := splitStatements(tc.ddl); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitStatements(%q) = %q, want %q", tc.ddl, got, tc.want)
		}
	}
}
