// Package ginbind debits the amount of a gin request body after reading
// the balance outside any transaction: two requests may both pass the
// check.
package ginbind

import (
	"database/sql"
	"net/http"

	"github.com/gin-gonic/gin"
	_ "github.com/go-sql-driver/mysql"
)

// Handler serves the API.
type Handler struct{ DB *sql.DB }

// Register mounts the routes.
func (h *Handler) Register(r *gin.Engine) { r.POST("/withdraw", h.withdraw) }

type withdrawal struct {
	AccountID int64 `json:"account_id" binding:"required"`
	Amount    int64 `json:"amount" binding:"required,gt=0"`
}

func (h *Handler) withdraw(c *gin.Context) {
	var req withdrawal
	if err := c.ShouldBindJSON(&req); err != nil {
		c.JSON(http.StatusBadRequest, gin.H{"error": err.Error()})
		return
	}
	ctx := c.Request.Context()
	var bal int64
	if err := h.DB.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = ?", req.AccountID).Scan(&bal); err != nil {
		c.JSON(http.StatusNotFound, gin.H{"error": err.Error()})
		return
	}
	if bal < req.Amount {
		c.JSON(http.StatusConflict, gin.H{"error": "insufficient funds"})
		return
	}
	if _, err := h.DB.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", req.Amount, req.AccountID); err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}
	c.JSON(http.StatusOK, gin.H{"debited": req.Amount})
}
