// Package pg_gin_withdraw_guarded_conflict_safe serves account withdrawals over gin (PostgreSQL).
//
// A refusal is an answer, not an error: withdraw debits with one guarded
// UPDATE (balance >= $1) and answers 409 with c.JSON when it matched no
// row. Concurrent withdrawals keep the balance; two of 2 and 1 from a
// balance of 2 end differently by order only because one of them is
// refused, which is no order dependence of two successful requests.
package pg_gin_withdraw_guarded_conflict_safe

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
	res, err := h.db.ExecContext(c.Request.Context(), "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", req.Amount, id)
	if err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": "db error"})
		return
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		c.JSON(http.StatusConflict, gin.H{"error": "insufficient funds"})
		return
	}
	c.Status(http.StatusNoContent)
}
