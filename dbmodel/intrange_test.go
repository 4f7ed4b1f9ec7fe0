package dbmodel

import "testing"

// TestIntType: the width of an integer column by each of its type's
// names, and no width for types whose names contain "int" but hold no
// integer (interval, point, int4range, integer[]: each was read as a 32-bit
// integer). PostgreSQL's serial8 and serial2 are bigserial and smallserial:
// read as 32 bits, a serial8 column's writes past 2^31 were taken as
// failing on the engine, which accepts them.
func TestIntType(t *testing.T) {
	tests := []struct {
		ty       string
		width    int
		unsigned bool
		ok       bool
	}{
		{"bigint", 64, false, true}, {"int8", 64, false, true}, {"bigserial", 64, false, true}, {"serial8", 64, false, true},
		{"integer", 32, false, true}, {"int", 32, false, true}, {"int4", 32, false, true}, {"serial", 32, false, true}, {"serial4", 32, false, true},
		{"smallint", 16, false, true}, {"int2", 16, false, true}, {"smallserial", 16, false, true}, {"serial2", 16, false, true},
		{"tinyint", 8, false, true}, {"mediumint", 24, false, true}, {"int unsigned", 32, true, true}, {"bigint unsigned", 64, true, true},
		{"numeric", 0, false, false}, {"text", 0, false, false}, {"double precision", 0, false, false},
		{"interval", 0, false, false}, {"point", 0, false, false}, {"int4range", 0, false, false}, {"integer[]", 0, false, false},
	}
	for _, tt := range tests {
		w, u, ok := intType(tt.ty)
		if ok != tt.ok || (ok && (w != tt.width || u != tt.unsigned)) {
			t.Errorf("intType(%q) = %d, %v, %v; want %d, %v, %v", tt.ty, w, u, ok, tt.width, tt.unsigned, tt.ok)
		}
	}
}
