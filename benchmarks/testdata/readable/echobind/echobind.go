// Package echobind debits the amount of an echo request body without a
// check.
package echobind

import (
	"database/sql"
	"net/http"

	_ "github.com/go-sql-driver/mysql"
	"github.com/labstack/echo/v4"
)

// Handler serves the API.
type Handler struct{ DB *sql.DB }

// Register mounts the routes.
func (h *Handler) Register(e *echo.Echo) { e.POST("/withdraw", h.withdraw) }

type withdrawal struct {
	AccountID int64 `json:"account_id"`
	Amount    int64 `json:"amount"`
}

func (h *Handler) withdraw(c echo.Context) error {
	var req withdrawal
	if err := c.Bind(&req); err != nil {
		return err
	}
	if req.Amount <= 0 {
		return echo.NewHTTPError(http.StatusBadRequest, "bad amount")
	}
	if _, err := h.DB.ExecContext(c.Request().Context(), "UPDATE accounts SET balance = balance - ? WHERE id = ?", req.Amount, req.AccountID); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]int64{"debited": req.Amount})
}
