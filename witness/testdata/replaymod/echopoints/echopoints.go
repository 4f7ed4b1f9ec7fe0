// Package echopoints redeems loyalty points over echo: POST
// /members/:id/redeem with a JSON body {"pts_to_redeem": "40"}, the
// points as a string of digits under a key that is neither the field's
// name nor its snake_case spelling.
package echopoints

import (
	"database/sql"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
	_ "modernc.org/sqlite"
)

// redemption is the request's body.
type redemption struct {
	Points string `json:"pts_to_redeem"`
}

// Handler serves redemptions.
type Handler struct{ DB *sql.DB }

// Register mounts the routes.
func (h *Handler) Register(e *echo.Echo) {
	e.POST("/members/:id/redeem", h.Redeem)
}

// Redeem takes the points from the member; it does not check that the
// member holds them, so a redemption can take the points below zero.
func (h *Handler) Redeem(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "bad member id")
	}
	var req redemption
	if err := c.Bind(&req); err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	n, err := strconv.ParseInt(req.Points, 10, 64)
	if err != nil || n <= 0 {
		return echo.NewHTTPError(http.StatusBadRequest, "points must be a positive number")
	}
	if _, err := h.DB.ExecContext(c.Request().Context(), `UPDATE members SET points = points - ? WHERE id = ?`, n, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
