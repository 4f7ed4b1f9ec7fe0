// Package ginparam redeems a coupon named in the request's path (MySQL,
// no schema: the column's type is what the SQL says of it).
package ginparam

import (
	"database/sql"
	"net/http"

	"github.com/gin-gonic/gin"
	_ "github.com/go-sql-driver/mysql"
)

// Handler serves the API.
type Handler struct{ DB *sql.DB }

// Register mounts the routes.
func (h *Handler) Register(r *gin.Engine) { r.POST("/coupons/:code/redeem", h.redeem) }

func (h *Handler) redeem(c *gin.Context) {
	code := c.Param("code")
	var remaining int64
	if err := h.DB.QueryRow("SELECT remaining FROM coupons WHERE code = ?", code).Scan(&remaining); err != nil {
		c.JSON(http.StatusNotFound, gin.H{"error": err.Error()})
		return
	}
	if remaining < 0 {
		c.JSON(http.StatusConflict, gin.H{"error": "used up"})
		return
	}
	if _, err := h.DB.Exec("UPDATE coupons SET remaining = remaining - 1 WHERE code = ?", code); err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}
	c.JSON(http.StatusOK, gin.H{"redeemed": code})
}
