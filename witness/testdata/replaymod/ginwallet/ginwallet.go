// Package ginwallet takes withdrawals over gin: POST /withdrawals with a
// JSON body {"wallet_no": "7", "amt": 5}. The wallet number is a string of
// digits and the amount's key is neither the field's name nor its
// snake_case spelling.
package ginwallet

import (
	"database/sql"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	_ "modernc.org/sqlite"
)

// withdrawal is the request's body.
type withdrawal struct {
	WalletNo string `json:"wallet_no" binding:"required"`
	Amount   int64  `json:"amt"`
}

// API serves withdrawals.
type API struct{ DB *sql.DB }

// Routes registers the API's routes.
func (a *API) Routes(r gin.IRouter) {
	r.POST("/withdrawals", a.Withdraw)
}

// Withdraw debits the wallet; it does not check that the wallet holds the
// amount, so a withdrawal can take the balance below zero.
func (a *API) Withdraw(c *gin.Context) {
	var req withdrawal
	if err := c.ShouldBindJSON(&req); err != nil {
		c.JSON(http.StatusBadRequest, gin.H{"error": err.Error()})
		return
	}
	id, err := strconv.ParseInt(req.WalletNo, 10, 64)
	if err != nil {
		c.JSON(http.StatusBadRequest, gin.H{"error": "bad wallet number"})
		return
	}
	if _, err := a.DB.ExecContext(c.Request.Context(), `UPDATE wallets SET balance = balance - ? WHERE id = ?`, req.Amount, id); err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}
	c.Status(http.StatusNoContent)
}
