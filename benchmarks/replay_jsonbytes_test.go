package benchmarks_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// TestReplayJSONBytesBody replays, with the built binary, the UNSAFE
// counterexample of an entry that takes the request's raw JSON body as a
// []byte and decodes it with json.Unmarshal. The trace decodes
// {"account_id": 2, "amount": 1}; replay passed an empty slice, the
// entry returned "unexpected end of JSON input" and the run was NOT
// REPRODUCED (an independent tester's mini/jsonbodyreplay). The driver
// passes the body it marshals from the decoded struct's fields.
func TestReplayJSONBytesBody(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a witness driver")
	}
	recordInputs(t)
	const name = "trust/sqlite_json_bytes_body_unsafe"
	c, err := harness.ReadCase(filepath.Join(corpusDir(t), name), name)
	if err != nil {
		t.Fatal(err)
	}
	out := replayCase(t, c)
	if !strings.Contains(out, "raw is the run's JSON body") || strings.Contains(out, "unexpected end of JSON input") {
		t.Errorf("raw is not the run's JSON body:\n%s", out)
	}
	// The text's inputs line lists the body's fields, not a len(raw) = 0
	// that contradicts them.
	check := dbverify(t, c.Dir, "check", "--no-cache", "--schema", "schema.sql", "--constraint", "accounts.balance >= 0", ".")
	text := string(check.Stdout)
	if !strings.Contains(text, `inputs:    JSON body field "account_id" = `) || strings.Contains(text, "len(raw)") {
		t.Errorf("the inputs line does not list the body alone:\n%s", text)
	}
}
