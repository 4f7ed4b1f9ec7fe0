package schema

import (
	"strings"
	"testing"

	"github.com/dbverify/dbverify/sqlir"
)

// TestSchemaObjects: generated columns (with their expression), triggers
// (with the body of the function they execute), rules and views are
// recorded with their position.
func TestSchemaObjects(t *testing.T) {
	const ddl = `CREATE TABLE budgets (
    id BIGINT PRIMARY KEY,
    total BIGINT NOT NULL,
    spent BIGINT NOT NULL DEFAULT 0,
    remaining BIGINT GENERATED ALWAYS AS (total - spent) STORED,
    serial_id INT GENERATED ALWAYS AS IDENTITY
);
CREATE FUNCTION take() RETURNS trigger AS $$ BEGIN UPDATE budgets SET spent = spent + NEW.amount WHERE id = NEW.budget_id; RETURN NEW; END; $$ LANGUAGE plpgsql;
CREATE TRIGGER expenses_take AFTER INSERT ON expenses FOR EACH ROW EXECUTE FUNCTION take();
CREATE TRIGGER audit_it AFTER UPDATE ON budgets FOR EACH ROW EXECUTE FUNCTION missing_fn();
CREATE VIEW open_budgets AS SELECT * FROM budgets WHERE total > spent;
CREATE MATERIALIZED VIEW totals AS SELECT sum(total) FROM budgets;`
	s, err := Parse(ddl)
	if err != nil {
		t.Fatal(err)
	}
	tb := s.Tables["budgets"]
	var rem, ser sqlir.Column
	for _, c := range tb.Columns {
		switch c.Name {
		case "remaining":
			rem = c
		case "serial_id":
			ser = c
		}
	}
	if rem.Generated != "total - spent" || rem.GeneratedPos != "line 5" || rem.GeneratedExpr == nil {
		t.Errorf("remaining: %+v", rem)
	}
	if ser.Generated != "" || !ser.AutoIncrement {
		t.Errorf("identity column taken as generated: %+v", ser)
	}
	if len(s.Triggers) != 2 {
		t.Fatalf("triggers: %+v", s.Triggers)
	}
	if tr := s.Triggers[0]; tr.Name != "expenses_take" || tr.Table != "expenses" || !tr.Resolved || !strings.Contains(tr.Body, "update budgets") || tr.Pos != "line 9" {
		t.Errorf("trigger with a known function: %+v", tr)
	}
	if tr := s.Triggers[1]; tr.Table != "budgets" || tr.Resolved {
		t.Errorf("trigger with an unknown function: %+v", tr)
	}
	if v := s.Views["open_budgets"]; v == nil || v.Pos != "line 11" {
		t.Errorf("view: %+v", s.Views)
	}
	if s.Views["totals"] != nil {
		t.Errorf("a materialized view is not updatable: %+v", s.Views["totals"])
	}
	if got := strings.Join(s.WritersOf("budgets"), ","); got != "budgets,expenses,open_budgets" {
		t.Errorf("WritersOf(budgets) = %s", got)
	}
}
