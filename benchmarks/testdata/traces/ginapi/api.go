// Package ginapi debits accounts over gin; nothing checks the balance.
package ginapi

import (
	"database/sql"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	_ "github.com/go-sql-driver/mysql"
)

// Handler serves the API.
type Handler struct{ db *sql.DB }

// Register mounts the routes.
func (h *Handler) Register(r *gin.Engine) {
	r.POST("/accounts/:id/withdraw", h.withdraw)
}

func (h *Handler) withdraw(c *gin.Context) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		c.JSON(http.StatusBadRequest, gin.H{"error": "bad id"})
		return
	}
	amount, err := strconv.ParseInt(c.Query("amount"), 10, 64)
	if err != nil || amount <= 0 {
		c.JSON(http.StatusBadRequest, gin.H{"error": "bad amount"})
		return
	}
	if _, err := h.db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, id); err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}
	c.Status(http.StatusNoContent)
}
