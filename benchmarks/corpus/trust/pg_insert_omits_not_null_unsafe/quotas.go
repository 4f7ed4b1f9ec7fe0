// Package pg_insert_omits_not_null_unsafe imports the usage of users from
// an older system. The INSERT leaves quota_limit out, and the schema's
// DEFAULT 0 fills it in: any usage above 0 is stored over its limit.
package pg_insert_omits_not_null_unsafe

import (
	"context"
	"database/sql"
	"fmt"

	_ "github.com/lib/pq"
)

// Importer copies usage records.
type Importer struct{ DB *sql.DB }

// ImportUsage stores the usage of username.
func (i *Importer) ImportUsage(ctx context.Context, username string, used int64) error {
	if _, err := i.DB.ExecContext(ctx, `INSERT INTO quotas (username, used) VALUES ($1, $2)`, username, used); err != nil {
		return fmt.Errorf("import %s: %w", username, err)
	}
	return nil
}
