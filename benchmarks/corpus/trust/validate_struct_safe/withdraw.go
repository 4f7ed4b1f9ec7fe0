// Package atm serves cash withdrawals over echo (MySQL). Requests are
// validated with go-playground/validator: the handler for card payments
// calls the validator itself, the cash handler through echo's Validate.
package atm

import (
	"database/sql"
	"log"
	"net/http"

	"github.com/go-playground/validator/v10"
	_ "github.com/go-sql-driver/mysql"
	"github.com/labstack/echo/v4"
)

type withdrawal struct {
	AccountID int64 `json:"account_id" validate:"required"`
	Amount    int64 `json:"amount" validate:"required,gte=20,lte=500"`
}

// Server serves the ATM API.
type Server struct {
	db       *sql.DB
	validate *validator.Validate
}

// New returns a Server with its routes on e.
func New(db *sql.DB, e *echo.Echo) *Server {
	s := &Server{db: db, validate: validator.New()}
	e.POST("/cash", s.cash)
	e.POST("/card", s.card)
	return s
}

// cash debits a cash withdrawal and counts it towards the daily total.
func (s *Server) cash(c echo.Context) error {
	var req withdrawal
	if err := c.Bind(&req); err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	if err := c.Validate(&req); err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	res, err := s.db.ExecContext(c.Request().Context(), "UPDATE accounts SET balance = balance - ?, withdrawn_today = withdrawn_today + ? WHERE id = ? AND balance >= ?", req.Amount, req.Amount, req.AccountID, req.Amount)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return echo.NewHTTPError(http.StatusConflict, "insufficient funds")
	}
	return c.NoContent(http.StatusNoContent)
}

// card debits a card payment and counts it towards the daily total.
func (s *Server) card(c echo.Context) error {
	var req withdrawal
	if err := c.Bind(&req); err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	if err := s.validate.Struct(req); err != nil {
		log.Printf("card: invalid request: %v", err)
		return echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	_, err := s.db.ExecContext(c.Request().Context(), "UPDATE accounts SET balance = balance - ?, withdrawn_today = withdrawn_today + ? WHERE id = ? AND balance >= ?", req.Amount, req.Amount, req.AccountID, req.Amount)
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
