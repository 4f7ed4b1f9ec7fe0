// Package echoapi debits accounts over echo; nothing checks the balance.
package echoapi

import (
	"database/sql"
	"net/http"
	"strconv"

	_ "github.com/go-sql-driver/mysql"
	"github.com/labstack/echo/v4"
)

// Handler serves the API.
type Handler struct{ DB *sql.DB }

// Register mounts the routes.
func (h *Handler) Register(e *echo.Echo) {
	e.POST("/accounts/:id/withdraw", h.withdraw)
}

func (h *Handler) withdraw(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "bad id")
	}
	amount, err := strconv.ParseInt(c.QueryParam("amount"), 10, 64)
	if err != nil || amount <= 0 {
		return echo.NewHTTPError(http.StatusBadRequest, "bad amount")
	}
	if _, err := h.DB.ExecContext(c.Request().Context(), "UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
