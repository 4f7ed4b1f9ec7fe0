// Package pg_insert_omits_not_null_safe imports the usage of users from
// an older system. The INSERT leaves quota_limit out; the schema gives it
// no DEFAULT and declares it NOT NULL, so PostgreSQL refuses every such
// row (23502): nothing that breaks used <= quota_limit is ever stored.
package pg_insert_omits_not_null_safe

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
