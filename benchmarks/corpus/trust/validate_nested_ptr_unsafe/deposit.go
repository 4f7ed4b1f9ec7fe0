// Package validate_nested_ptr_unsafe takes deposits over gin (PostgreSQL
// through lib/pq). The amount sits in a nested struct behind a pointer
// field. In deposit its tags bound it from above only; in depositSkipped
// the lower bound is there but the pointer field is tagged "-", so the
// validator never looks inside: both accept a negative deposit.
package validate_nested_ptr_unsafe

import (
	"database/sql"
	"net/http"

	"github.com/gin-gonic/gin"
	_ "github.com/lib/pq"
)

// money is an amount in cents, bounded from above only.
type money struct {
	Cents int64 `json:"cents" binding:"lte=100000"`
}

// depositRequest is the JSON body of a deposit.
type depositRequest struct {
	AccountID int64  `json:"account_id" binding:"required"`
	Amount    *money `json:"amount" binding:"required"`
}

// checkedMoney is an amount in cents with both bounds.
type checkedMoney struct {
	Cents int64 `json:"cents" binding:"gte=0,lte=100000"`
}

// skippedRequest tells the validator to skip its amount.
type skippedRequest struct {
	AccountID int64         `json:"account_id" binding:"required"`
	Amount    *checkedMoney `json:"amount" binding:"-"`
}

// API serves deposits.
type API struct{ DB *sql.DB }

// Mount registers the routes.
func (a *API) Mount(r gin.IRouter) {
	r.POST("/deposits", a.deposit)
	r.POST("/deposits/unchecked", a.depositSkipped)
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

func (a *API) depositSkipped(c *gin.Context) {
	var req skippedRequest
	if err := c.ShouldBindJSON(&req); err != nil {
		c.JSON(http.StatusBadRequest, gin.H{"error": err.Error()})
		return
	}
	if req.Amount == nil {
		c.Status(http.StatusBadRequest)
		return
	}
	if _, err := a.DB.ExecContext(c.Request.Context(), "UPDATE accounts SET balance = balance + $1 WHERE id = $2", req.Amount.Cents, req.AccountID); err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}
	c.Status(http.StatusCreated)
}
