// Package deposits takes deposits over gin (PostgreSQL through lib/pq).
// The request body is bound and validated by gin's binding tags.
package deposits

import (
	"database/sql"
	"net/http"

	"github.com/gin-gonic/gin"
	_ "github.com/lib/pq"
)

// depositRequest is the JSON body of a deposit.
type depositRequest struct {
	AccountID int64 `json:"account_id" binding:"required"`
	// BUG: required only rejects 0; a negative deposit passes.
	Amount int64 `json:"amount" binding:"required"`
}

// API serves deposits.
type API struct{ DB *sql.DB }

// Mount registers the routes.
func (a *API) Mount(r gin.IRouter) {
	r.POST("/deposits", a.deposit)
}

func (a *API) deposit(c *gin.Context) {
	var req depositRequest
	if err := c.ShouldBindJSON(&req); err != nil {
		c.JSON(http.StatusBadRequest, gin.H{"error": err.Error()})
		return
	}
	if _, err := a.DB.ExecContext(c.Request.Context(), "UPDATE accounts SET balance = balance + $1 WHERE id = $2", req.Amount, req.AccountID); err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}
	c.Status(http.StatusCreated)
}
