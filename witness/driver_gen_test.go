package witness

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"
)

func TestDriverBuildsForCorpus(t *testing.T) {
	dir, _ := filepath.Abs("../benchmarks/corpus")
	cfg := &packages.Config{Mode: LoadMode, Dir: dir}
	pkgs, err := packages.Load(cfg, append([]string{"./bank/withdraw_unsafe", "./core/atm_unsafe"}, HandlePackages...)...)
	if err != nil {
		t.Fatal(err)
	}
	src, err := GenerateDriver(pkgs, dir, "example.com/corpus", []string{
		"example.com/corpus/bank/withdraw_unsafe.Withdraw",
		"example.com/corpus/core/atm_unsafe.Withdraw",
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range src.Files {
		if filepath.Base(name) != "rt.go" {
			t.Logf("%s:\n%s", name, f)
		}
	}
	tmp := t.TempDir()
	bin, err := src.Build(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatal(err)
	}
}
