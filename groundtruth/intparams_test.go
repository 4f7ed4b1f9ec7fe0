package groundtruth_test

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/groundtruth"
)

// TestPostgresIntParamRange runs, on PostgreSQL 15, what the row model
// assumes of integer arguments bound to parameters the server types int2
// or int4 (dbmodel intparams.go, ir.IntParamCheck): through pgx's
// database/sql driver in its default exec mode an int64 out of the type's
// range is refused ("unable to encode"), and the same value sent as text
// to a statement prepared without parameter types (as lib/pq binds it:
// here PREPARE … EXECUTE) fails on the server (22003); neither changes the
// row. A parameter beside a BIGINT column, or cast to bigint, takes it.
func TestPostgresIntParamRange(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers")
	}
	ctx := context.Background()
	db, _, err := engines.get(t, groundtruth.Postgres).NewDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, ddl := range []string{
		`CREATE TABLE loyalty (member_id INT PRIMARY KEY, points INT NOT NULL, small SMALLINT NOT NULL, big BIGINT NOT NULL)`,
		`INSERT INTO loyalty VALUES (1, 0, 0, 0)`,
	} {
		if _, err := db.ExecContext(ctx, ddl); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		sql   string
		n     int64
		fails bool
	}{
		{`UPDATE loyalty SET points = points - $1 WHERE member_id = 1`, math.MaxInt32 + 1, true},
		{`UPDATE loyalty SET points = points - $1 WHERE member_id = 1`, math.MinInt32 - 1, true},
		{`UPDATE loyalty SET points = points - $1 WHERE member_id = 1`, math.MaxInt64, true},
		{`UPDATE loyalty SET points = $1 WHERE member_id = 1`, math.MaxInt32 + 1, true},
		{`UPDATE loyalty SET big = big - 1 WHERE member_id = 1 AND points >= $1`, math.MaxInt32 + 1, true},
		{`UPDATE loyalty SET small = small - $1 WHERE member_id = 1`, math.MaxInt16 + 1, true},
		{`INSERT INTO loyalty (member_id, points, small, big) VALUES ($1, 0, 0, 0)`, math.MaxInt32 + 1, true},
		// In range, or typed int8.
		{`UPDATE loyalty SET points = points - $1 WHERE member_id = 1`, math.MaxInt32, false},
		{`UPDATE loyalty SET points = points + $1 WHERE member_id = 1`, math.MaxInt32, false},
		{`UPDATE loyalty SET big = big - $1 WHERE member_id = 1`, math.MaxInt32 + 1, false},
		{`UPDATE loyalty SET big = big + points - $1::bigint WHERE member_id = 1`, math.MaxInt32 + 1, false},
	} {
		for _, text := range []bool{false, true} {
			if _, err := db.ExecContext(ctx, `UPDATE loyalty SET points = 0, small = 0, big = 0 WHERE member_id = 1`); err != nil {
				t.Fatal(err)
			}
			err := execIntParam(ctx, db, c.sql, c.n, text)
			switch {
			case c.fails && err == nil:
				t.Errorf("%s with %d (text %v) ran, want it refused", c.sql, c.n, text)
			case c.fails && text && !strings.Contains(err.Error(), "22003"):
				t.Errorf("%s with %d as text: %v, want 22003 (out of range)", c.sql, c.n, err)
			case c.fails && !text && !strings.Contains(err.Error(), "unable to encode"):
				t.Errorf("%s with %d: %v, want pgx's unable to encode", c.sql, c.n, err)
			case !c.fails && err != nil:
				t.Errorf("%s with %d (text %v): %v, want it to run", c.sql, c.n, text, err)
			}
			var points, small, big int64
			if err := db.QueryRowContext(ctx, `SELECT points, small, big FROM loyalty WHERE member_id = 1`).Scan(&points, &small, &big); err != nil {
				t.Fatal(err)
			}
			if c.fails && (points != 0 || small != 0 || big != 0) {
				t.Errorf("%s with %d (text %v) changed the row: %d %d %d", c.sql, c.n, text, points, small, big)
			}
		}
	}
}

// execIntParam runs query with n bound as an int64 (pgx), or as text to
// the statement prepared without parameter types (lib/pq's binding).
func execIntParam(ctx context.Context, db *sql.DB, query string, n int64, text bool) error {
	if !text {
		_, err := db.ExecContext(ctx, query, n)
		return err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PREPARE p AS "+query); err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	defer conn.ExecContext(ctx, "DEALLOCATE p") //nolint:errcheck // (the connection is closed next)
	_, err = conn.ExecContext(ctx, fmt.Sprintf("EXECUTE p('%d')", n))
	return err
}
