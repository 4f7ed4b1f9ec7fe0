// Package points awards loyalty points over echo (MySQL). A middleware
// style helper validates the path and query parameters; the handler reads
// them again.
package points

import (
	"database/sql"
	"errors"
	"net/http"
	"strconv"

	_ "github.com/go-sql-driver/mysql"
	"github.com/labstack/echo/v4"
)

// Handler serves the points API.
type Handler struct{ DB *sql.DB }

// Register mounts the routes.
func (h *Handler) Register(e *echo.Echo) {
	e.POST("/members/:id/award", h.award)
}

func checkParams(c echo.Context) error {
	if _, err := strconv.ParseInt(c.Param("id"), 10, 64); err != nil {
		return errors.New("bad member id")
	}
	// BUG: checks the "point" parameter; the handler awards "points".
	n, err := strconv.ParseInt(c.QueryParam("point"), 10, 64)
	if err != nil || n <= 0 {
		return errors.New("points must be positive")
	}
	return nil
}

func (h *Handler) award(c echo.Context) error {
	if err := checkParams(c); err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	id, _ := strconv.ParseInt(c.Param("id"), 10, 64)
	n, _ := strconv.ParseInt(c.QueryParam("points"), 10, 64)
	if _, err := h.DB.ExecContext(c.Request().Context(), "UPDATE members SET points = points + ? WHERE id = ?", n, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
