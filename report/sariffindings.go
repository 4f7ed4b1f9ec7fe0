package report

// ruleTxEscape is the SARIF rule of FindingTxEscape (index 3 of
// sarifRules).
const ruleTxEscape = "DBV004"

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
	}}
}

// findingResults returns the SARIF results of rep's findings.
func (o sarifOptions) findingResults(rep *Report) []sarifResult {
	var out []sarifResult
	for _, f := range rep.Findings {
		if f.Class != FindingTxEscape {
			continue
		}
		res := sarifResult{RuleID: ruleTxEscape, RuleIndex: 3, Level: "warning", Message: sarifMessage{Text: f.Message},
			Locations: o.primary(&Result{Position: f.Position}), PartialFingerprints: fingerprint(ruleTxEscape, f.Entry, WithoutPositions(f.Message))}
		if l, ok := o.location(f.Related, "the transaction's BEGIN"); ok {
			res.RelatedLocations = []sarifLocation{l}
		}
		out = append(out, res)
	}
	return out
}
