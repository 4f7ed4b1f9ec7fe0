// Package sqlite_season_hold_safe is the room-hold store of a small
// booking app on SQLite, which keeps dates as ISO-8601 TEXT (the SQLite
// convention): they compare as strings.
package sqlite_season_hold_safe

import (
	"context"
	"database/sql"
	"fmt"

	_ "modernc.org/sqlite"
)

// The summer season the owners block rooms for.
const (
	seasonStart = "2024-07-01"
	seasonEnd   = "2024-09-30"
)

// Holds blocks rooms for the season.
type Holds struct{ db *sql.DB }

// Open opens the booking database file.
func Open(path string) (*Holds, error) {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, err
	}
	return &Holds{db: db}, nil
}

// HoldForSeason moves booking id onto the season window.
func (h *Holds) HoldForSeason(ctx context.Context, id int64) error {
	if _, err := h.db.ExecContext(ctx,
		`UPDATE bookings SET check_in = ?, check_out = ? WHERE id = ?`,
		seasonStart, seasonEnd, id); err != nil {
		return fmt.Errorf("hold booking %d: %w", id, err)
	}
	return nil
}
