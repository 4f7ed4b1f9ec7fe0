package report

// The SARIF rules of the finding classes, after sarifRules' three verdict
// rules (indexes 0–2): ruleTxEscape (index 3), ruleLostUpdate (index
// 4), ruleCheckInsert (index 5), ruleOrderDep (index 6) and ruleDeadlock
// (index 7).
const (
	ruleTxEscape    = "DBV004"
	ruleLostUpdate  = "DBV005"
	ruleCheckInsert = "DBV006"
	ruleOrderDep    = "DBV007"
	ruleDeadlock    = "DBV008"
)

// findingRule is a finding class's rule: its ID, its index in the
// driver's rules and how its related location is named.
type findingRule struct {
	id      string
	index   int
	related string
}

// findingRuleOf returns the rule of a finding class (false: no rule).
func findingRuleOf(class string) (findingRule, bool) {
	switch class {
	case FindingTxEscape:
		return findingRule{ruleTxEscape, 3, "the transaction's BEGIN"}, true
	case FindingLostUpdate:
		return findingRule{ruleLostUpdate, 4, "the read whose value is written back"}, true
	case FindingCheckInsert:
		return findingRule{ruleCheckInsert, 5, "the read that found no row"}, true
	case FindingOrderDependence:
		return findingRule{ruleOrderDep, 6, "the other request's write"}, true
	case FindingDeadlock:
		return findingRule{ruleDeadlock, 7, "the lock taken first"}, true
	}
	return findingRule{}, false
}

// findingRules are the rules of the finding classes, after sarifRules'
// verdict rules.
func findingRules() []sarifRule {
	return []sarifRule{{
		ID: ruleTxEscape, Name: "TransactionEscape",
		ShortDescription: sarifMessage{Text: "A statement runs on the pool while a transaction of the same request is open"},
		FullDescription: sarifMessage{Text: "The statement is issued on the *sql.DB (or pgx pool) rather than on the open transaction: it commits on its own, " +
			"on another connection, outside the transaction's atomicity and isolation (a rollback does not undo it, it does not see the transaction's " +
			"uncommitted writes, a lock it takes is released when it ends) and it may wait for the transaction's own row locks."},
		Help: sarifMarkdown{
			Text:     "Run the statement on the transaction (tx.ExecContext / tx.QueryRowContext instead of db.…), or move it out of the transaction if it must commit on its own.",
			Markdown: "Run the statement on the transaction (`tx.ExecContext` / `tx.QueryRowContext` instead of `db.…`), or move it out of the transaction if it must commit on its own.",
		},
		DefaultConfiguration: sarifConfiguration{Level: "warning"},
		Properties:           sarifRuleProperties{Precision: "high", ProblemSeverity: "warning", Tags: []string{"correctness", "database", "concurrency"}},
	}, {
		ID: ruleLostUpdate, Name: "LostUpdate",
		ShortDescription: sarifMessage{Text: "A read-modify-write of a row loses concurrent updates"},
		FullDescription: sarifMessage{Text: "The request reads a column without a row lock, computes the new value in Go and writes it back absolutely " +
			"(UPDATE … SET c = $1), at an isolation level where a second request may read the same old value before the first commits: " +
			"the second write overwrites the first, and the final value differs from both orders of running the two requests one after the other."},
		Help: sarifMarkdown{
			Text: "Write relative to the row's current value (SET c = c - $1), lock the row on the read (SELECT … FOR UPDATE), or check that the value " +
				"did not change (UPDATE … WHERE id = $1 AND c = $old, or a version column, and check RowsAffected); on PostgreSQL, REPEATABLE READ " +
				"or SERIALIZABLE makes the second writer fail with 40001 (retry it).",
			Markdown: "Write relative to the row's current value (`SET c = c - $1`), lock the row on the read (`SELECT … FOR UPDATE`), or check that the value " +
				"did not change (`UPDATE … WHERE id = $1 AND c = $old`, or a version column, and check `RowsAffected`); on PostgreSQL, `REPEATABLE READ` " +
				"or `SERIALIZABLE` makes the second writer fail with 40001 (retry it).",
		},
		DefaultConfiguration: sarifConfiguration{Level: "warning"},
		Properties:           sarifRuleProperties{Precision: "high", ProblemSeverity: "warning", Tags: []string{"correctness", "database", "concurrency"}},
	}, {
		ID: ruleCheckInsert, Name: "CheckThenInsert",
		ShortDescription: sarifMessage{Text: "Two requests both find no row with a key and both insert one"},
		FullDescription: sarifMessage{Text: "The request reads whether a row with a key exists (SELECT … WHERE k = $1, SELECT count(*)) and inserts one " +
			"where it found none, with no lock that blocks a concurrent insert of the key: two requests both read none and both insert. Without a " +
			"PRIMARY KEY or UNIQUE key on the key columns the table gets duplicate rows; with one, the second INSERT fails with a unique violation " +
			"(PostgreSQL 23505, MySQL 1062) that the code does not handle."},
		Help: sarifMarkdown{
			Text: "Declare a UNIQUE key on the columns and insert with ON CONFLICT DO NOTHING (PostgreSQL) or INSERT IGNORE (MySQL), checking " +
				"RowsAffected, or check the INSERT's error for a unique violation; or lock a row both requests share before the read (a parent row " +
				"FOR UPDATE). PostgreSQL SERIALIZABLE fails one request with 40001 instead (retry it).",
			Markdown: "Declare a `UNIQUE` key on the columns and insert with `ON CONFLICT DO NOTHING` (PostgreSQL) or `INSERT IGNORE` (MySQL), checking " +
				"`RowsAffected`, or check the INSERT's error for a unique violation; or lock a row both requests share before the read (a parent row " +
				"`FOR UPDATE`). PostgreSQL `SERIALIZABLE` fails one request with 40001 instead (retry it).",
		},
		DefaultConfiguration: sarifConfiguration{Level: "warning"},
		Properties:           sarifRuleProperties{Precision: "high", ProblemSeverity: "warning", Tags: []string{"correctness", "database", "concurrency"}},
	}, {
		ID: ruleOrderDep, Name: "OrderDependence",
		ShortDescription: sarifMessage{Text: "Two requests end in different states depending on which runs first"},
		FullDescription: sarifMessage{Text: "Two requests (two handlers, or one handler on other inputs) both write a cell of a constrained table, and " +
			"from the same row with the same inputs, running one then the other and the other way round both succeed but leave the cell with " +
			"different values (SET c = c * 2 against SET c = c + 10, an absolute write against a relative one, a state change against an " +
			"update guarded by the old state). Which value the database keeps depends on which request commits first."},
		Help: sarifMarkdown{
			Text: "If the outcome must not depend on arrival order, make the writes commute (relative updates of one kind), make one request " +
				"refuse to run after the other (a state check in the WHERE with RowsAffected checked, a version column), or serialize them explicitly.",
			Markdown: "If the outcome must not depend on arrival order, make the writes commute (relative updates of one kind), make one request " +
				"refuse to run after the other (a state check in the `WHERE` with `RowsAffected` checked, a version column), or serialize them explicitly.",
		},
		DefaultConfiguration: sarifConfiguration{Level: "warning"},
		Properties:           sarifRuleProperties{Precision: "high", ProblemSeverity: "warning", Tags: []string{"correctness", "database", "concurrency"}},
	}, {
		ID: ruleDeadlock, Name: "DeadlockProneLockOrder",
		ShortDescription: sarifMessage{Text: "Two requests may lock rows in opposite orders and deadlock"},
		FullDescription: sarifMessage{Text: "A transaction locks a row by key (SELECT … FOR UPDATE, UPDATE, DELETE) and later another row of the same " +
			"table by a key value written differently (or upgrades a shared lock): two requests with the values swapped each hold one lock and " +
			"wait for the other's. The engine breaks the deadlock by failing one waiting statement (PostgreSQL 40P01, which aborts the " +
			"transaction; MySQL/MariaDB 1213, which rolls the whole transaction back and leaves later statements in autocommit), and the code " +
			"does not retry on that error."},
		Help: sarifMarkdown{
			Text: "Lock the rows in one order (by key: one locking read of all of them, SELECT … WHERE id IN ($1, $2) ORDER BY id FOR UPDATE), " +
				"or retry the whole transaction when it fails with the deadlock error.",
			Markdown: "Lock the rows in one order (by key: one locking read of all of them, `SELECT … WHERE id IN ($1, $2) ORDER BY id FOR UPDATE`), " +
				"or retry the whole transaction when it fails with the deadlock error (40P01, 1213).",
		},
		DefaultConfiguration: sarifConfiguration{Level: "warning"},
		Properties:           sarifRuleProperties{Precision: "medium", ProblemSeverity: "warning", Tags: []string{"correctness", "database", "concurrency"}},
	}}
}

// findingResults returns the SARIF results of rep's findings.
func (o sarifOptions) findingResults(rep *Report) []sarifResult {
	var out []sarifResult
	for _, f := range rep.Findings {
		rule, ok := findingRuleOf(f.Class)
		if !ok {
			continue
		}
		res := sarifResult{RuleID: rule.id, RuleIndex: rule.index, Level: "warning", Message: sarifMessage{Text: f.Message},
			Locations: o.primary(&Result{Position: f.Position}), PartialFingerprints: fingerprint(rule.id, f.Entry, WithoutPositions(f.Message))}
		if l, ok := o.location(f.Related, rule.related); ok {
			res.RelatedLocations = []sarifLocation{l}
		}
		out = append(out, res)
	}
	return out
}
