// Package pg_gin_withdraw_conflict_unsafe serves account withdrawals over gin (PostgreSQL).
//
// withdraw reads the balance with a plain SELECT at READ COMMITTED,
// answers 409 with c.JSON when it does not cover the amount, and debits
// it. Two withdrawals of 60 from 100 both read 100 and pass the check; the
// second debit applies to the committed 40: -20.
package pg_gin_withdraw_conflict_unsafe

import (
	"database/sql"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	_ "github.com/jackc/pgx/v5/stdlib"
)

// Handler holds the API's dependencies.
type Handler struct{ db *sql.DB }

// Register mounts the routes on r.
func (h *Handler) Register(r *gin.Engine) {
	r.POST("/accounts/:id/withdraw", h.withdraw)
}

type withdrawal struct {
	Amount int64 `json:"amount"`
}

func (h *Handler) withdraw(c *gin.Context) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		c.JSON(http.StatusBadRequest, gin.H{"error": "bad id"})
		return
	}
	var req withdrawal
	if err := c.ShouldBindJSON(&req); err != nil || req.Amount <= 0 {
		c.JSON(http.StatusBadRequest, gin.H{"error": "bad amount"})
		return
	}
	ctx := c.Request.Context()
	tx, err := h.db.BeginTx(ctx, nil)
	if err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": "db error"})
		return
	}
	defer tx.Rollback()
	var balance int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&balance); err != nil {
		c.JSON(http.StatusNotFound, gin.H{"error": "no account"})
		return
	}
	if balance < req.Amount {
		c.JSON(http.StatusConflict, gin.H{"error": "insufficient funds"})
		return
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", req.Amount, id); err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": "db error"})
		return
	}
	if err := tx.Commit(); err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": "db error"})
		return
	}
	c.Status(http.StatusNoContent)
}
