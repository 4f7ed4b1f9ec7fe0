// Package accounts serves account withdrawals over gin (MySQL). The
// handler is a method value registered behind an authentication middleware.
package accounts

import (
	"database/sql"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	_ "github.com/go-sql-driver/mysql"
)

// Handler holds the API's dependencies.
type Handler struct {
	db *sql.DB
}

// Register mounts the routes on r.
func (h *Handler) Register(r *gin.Engine) {
	api := r.Group("/api")
	api.POST("/accounts/:id/withdraw", authRequired, h.withdraw)
}

func authRequired(c *gin.Context) {
	if c.GetHeader("Authorization") == "" {
		c.AbortWithStatus(http.StatusUnauthorized)
		return
	}
	c.Next()
}

func (h *Handler) withdraw(c *gin.Context) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		c.JSON(http.StatusBadRequest, gin.H{"error": "bad id"})
		return
	}
	amount, err := strconv.ParseInt(c.PostForm("amount"), 10, 64)
	if err != nil || amount <= 0 {
		c.JSON(http.StatusBadRequest, gin.H{"error": "bad amount"})
		return
	}
	tx, err := h.db.BeginTx(c.Request.Context(), nil)
	if err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}
	defer tx.Rollback()
	var bal int64
	if err := tx.QueryRow("SELECT balance FROM accounts WHERE id = ? FOR UPDATE", id).Scan(&bal); err != nil {
		c.JSON(http.StatusNotFound, gin.H{"error": "no account"})
		return
	}
	// Enough funds for the debit.
	if bal < amount {
		c.JSON(http.StatusConflict, gin.H{"error": "insufficient funds"})
		return
	}
	if _, err := tx.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, id); err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}
	if err := tx.Commit(); err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}
	c.Status(http.StatusNoContent)
}
