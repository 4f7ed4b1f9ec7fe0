package witness

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

func TestGenerateDriverFillsHandlesAndInputs(t *testing.T) {
	dir, err := filepath.Abs("../benchmarks/corpus")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: LoadMode, Dir: dir},
		append([]string{"./core/atm_unsafe", "./bank/transfer_unsafe", "./interproc/handler_unsafe"}, HandlePackages...)...)
	if err != nil {
		t.Fatal(err)
	}
	entries := []string{
		"example.com/corpus/core/atm_unsafe.Withdraw",
		"example.com/corpus/bank/transfer_unsafe.(*Store).Transfer",
		"example.com/corpus/interproc/handler_unsafe.(*Server).routes$1",
		"example.com/corpus/core/atm_unsafe.NoSuchFunction",
	}
	src, err := GenerateDriver(pkgs, dir, "example.com/corpus", entries)
	if err != nil {
		t.Fatal(err)
	}
	atm := string(src.Files[filepath.Join(dir, "core/atm_unsafe", exportFile)])
	if !strings.Contains(atm, `Withdraw(h.DB, int(in.Int("accNo")), int(in.Int("amt")))`) {
		t.Errorf("atm_unsafe's driver does not call Withdraw with the handle and the inputs:\n%s", atm)
	}
	tr := string(src.Files[filepath.Join(dir, "bank/transfer_unsafe", exportFile)])
	if !strings.Contains(tr, "(&Store{db: h.DB}).Transfer(ctx,") {
		t.Errorf("transfer_unsafe's driver does not fill the receiver's handle:\n%s", tr)
	}
	if _, ok := src.Files[filepath.Join(dir, MainDir, "main.go")]; !ok {
		t.Errorf("no main package among %v", sortedKeys(src.Files))
	}
	spec := src.Entries[entries[0]]
	var paths []string
	for _, in := range spec.Inputs {
		paths = append(paths, in.Path+":"+string(in.Kind))
	}
	if got := strings.Join(paths, " "); got != "accNo:int amt:int" {
		t.Errorf("atm_unsafe inputs = %q, want accNo:int amt:int", got)
	}
	for _, e := range entries[2:] {
		if src.Entries[e].NotExecutable == "" {
			t.Errorf("%s: want a reason why it cannot be called", e)
		}
	}
}
