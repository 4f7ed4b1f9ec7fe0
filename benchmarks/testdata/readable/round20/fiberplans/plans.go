// Package fiberplans sells plan upgrades paid with account credits (a
// fiber v2 handler): the guard checks the client's quoted price, the
// UPDATE subtracts the plan's cost.
package fiberplans

import (
	"database/sql"
	"strconv"

	"github.com/gofiber/fiber/v2"
	_ "modernc.org/sqlite"
)

// App holds the dependencies.
type App struct {
	DB *sql.DB
}

// Mount registers the routes.
func (a *App) Mount(app *fiber.App) {
	app.Post("/accounts/:id/upgrade", a.upgrade)
}

// upgrade moves an account to a plan at the price the client quoted.
func (a *App) upgrade(c *fiber.Ctx) error {
	id, err := strconv.ParseInt(c.Params("id"), 10, 64)
	if err != nil {
		return fiber.ErrBadRequest
	}
	plan, err := strconv.ParseInt(c.Query("plan"), 10, 64)
	if err != nil {
		return fiber.ErrBadRequest
	}
	quoted, err := strconv.ParseInt(c.Query("quoted"), 10, 64)
	if err != nil || quoted < 0 {
		return fiber.ErrBadRequest
	}
	cost := int64(0)
	if err := a.DB.QueryRow(`SELECT cost FROM plans WHERE id = ?`, plan).Scan(&cost); err != nil {
		return err
	}
	res, err := a.DB.Exec(`UPDATE accounts SET credits = credits - ?, plan_id = ? WHERE id = ? AND credits >= ?`, cost, plan, id, quoted)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fiber.NewError(fiber.StatusPaymentRequired, "not enough credits")
	}
	return c.SendStatus(fiber.StatusNoContent)
}
