// Package validate_nested_ptr_safe takes deposits over gin (PostgreSQL
// through lib/pq). The amount sits in a nested struct behind a pointer
// field, as request types with optional parts are written; gin's
// validator checks the binding tags of the struct the pointer points to.
package validate_nested_ptr_safe

import (
	"database/sql"
	"net/http"

	"github.com/gin-gonic/gin"
	_ "github.com/lib/pq"
)

// money is an amount in cents.
type money struct {
	Cents int64 `json:"cents" binding:"gte=0,lte=100000"`
}

// depositRequest is the JSON body of a deposit.
type depositRequest struct {
	AccountID int64  `json:"account_id" binding:"required"`
	Amount    *money `json:"amount" binding:"required"`
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
	if _, err := a.DB.ExecContext(c.Request.Context(), "UPDATE accounts SET balance = balance + $1 WHERE id = $2", req.Amount.Cents, req.AccountID); err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}
	c.Status(http.StatusCreated)
}
