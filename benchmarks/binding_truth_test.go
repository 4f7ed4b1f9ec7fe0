package benchmarks_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bindingTruthTest is an in-package test run on a copy of a corpus case:
// it serves the case's routes on gin and posts each body, expecting 400
// when gin's binding rejects the body and 500 when the handler went on
// to the database (unreachable here, so the statement fails).
const bindingTruthTest = `package %s

import (
	"database/sql"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

func TestBindingTruth(t *testing.T) {
	gin.SetMode(gin.ReleaseMode)
	db, err := sql.Open("postgres", "host=/nonexistent-dbverify-socket-dir dbname=x sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := gin.New()
	(&API{DB: db}).Mount(r)
	for _, tc := range []struct {
		path, body string
		want       int
	}{
%s	} {
		w := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, tc.path, strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		r.ServeHTTP(w, req)
		if w.Code != tc.want {
			t.Errorf("POST %%s %%s: status %%d, want %%d (%%s)", tc.path, tc.body, w.Code, tc.want, w.Body.String())
		}
	}
}
`

// TestBindingNestedPointerTruth is the ground truth of the nested
// pointer validation cases (issue 8, D3), by execution on gin: the SAFE
// case's handler rejects the negative amount its old false
// counterexample needed before any statement runs, and the UNSAFE twin's
// handlers accept it and run their UPDATE.
func TestBindingNestedPointerTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gin and runs go test")
	}
	t.Parallel()
	recordInputs(t)
	corpus, mod := corpusModule(t)
	cases := []struct {
		dir, rows string
	}{
		{"trust/validate_nested_ptr_safe", `
		{"/deposits", ` + "`" + `{"account_id": 1, "amount": {"cents": -1}}` + "`" + `, http.StatusBadRequest},
		{"/deposits", ` + "`" + `{"account_id": 1}` + "`" + `, http.StatusBadRequest},
		{"/deposits", ` + "`" + `{"account_id": 1, "amount": {"cents": 5}}` + "`" + `, http.StatusInternalServerError},
`},
		{"trust/validate_nested_ptr_unsafe", `
		{"/deposits", ` + "`" + `{"account_id": 1, "amount": {"cents": -1}}` + "`" + `, http.StatusInternalServerError},
		{"/deposits/unchecked", ` + "`" + `{"account_id": 1, "amount": {"cents": -1}}` + "`" + `, http.StatusInternalServerError},
`},
	}
	var pkgs []string
	for _, c := range cases {
		dir := filepath.Join(mod, filepath.FromSlash(c.dir))
		copyDir(t, filepath.Join(corpus, filepath.FromSlash(c.dir)), dir, "")
		src := fmt.Sprintf(bindingTruthTest, filepath.Base(c.dir), c.rows)
		if err := os.WriteFile(filepath.Join(dir, "truth_test.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, "./"+c.dir)
	}
	cmd := exec.Command("go", append([]string{"test", "-count=1", "-run", "^TestBindingTruth$"}, pkgs...)...)
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Count(string(out), "ok ") != len(pkgs) {
		t.Fatalf("go test: %v\n%s", err, out)
	}
}
