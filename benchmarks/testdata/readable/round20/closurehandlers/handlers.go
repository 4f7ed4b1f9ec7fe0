// Package closurehandlers builds its echo handlers as a struct of
// closures over the database.
package closurehandlers

import (
	"database/sql"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
	_ "modernc.org/sqlite"
)

// Handlers are the account routes.
type Handlers struct {
	Redeem echo.HandlerFunc
	TopUp  echo.HandlerFunc
}

// NewHandlers returns the handlers over db.
func NewHandlers(db *sql.DB) Handlers {
	return Handlers{
		Redeem: func(c echo.Context) error {
			id, err := strconv.ParseInt(c.Param("id"), 10, 64)
			if err != nil {
				return echo.ErrBadRequest
			}
			points, err := strconv.ParseInt(c.QueryParam("points"), 10, 64)
			if err != nil || points <= 0 {
				return echo.ErrBadRequest
			}
			// The guard checks one point, the UPDATE takes them all.
			if _, err := db.Exec(`UPDATE accounts SET credits = credits - ? WHERE id = ? AND credits >= 1`, points, id); err != nil {
				return err
			}
			return c.NoContent(http.StatusNoContent)
		},
		TopUp: func(c echo.Context) error {
			id, err := strconv.ParseInt(c.Param("id"), 10, 64)
			if err != nil {
				return echo.ErrBadRequest
			}
			if _, err := db.Exec(`UPDATE accounts SET credits = credits + 1 WHERE id = ?`, id); err != nil {
				return err
			}
			return c.NoContent(http.StatusNoContent)
		},
	}
}

// Mount registers the handlers.
func (h Handlers) Mount(e *echo.Echo) {
	e.POST("/accounts/:id/redeem", h.Redeem)
	e.POST("/accounts/:id/topup", h.TopUp)
}
