package witness

import (
	"bytes"
	"strings"
	"testing"
)

// TestWrapNowCalls: the driver's overlay wraps each time.Now() call (the
// import's own name, if renamed) and keeps every line's number; a file
// that calls none is left out.
func TestWrapNowCalls(t *testing.T) {
	src := []byte("package p\n\nimport clk \"time\"\n\nfunc f() int64 {\n\tnow := clk.Now()\n\treturn now.Add(clk.Minute).Unix() + clk.Now().Unix()\n}\n")
	out, err := wrapNowCalls("p.go", src, "example.com/m/zzwitnessrt")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"package p; import zzwitnessclock \"example.com/m/zzwitnessrt\"\n",
		"now := zzwitnessclock.Now(clk.Now())\n",
		"+ zzwitnessclock.Now(clk.Now()).Unix()",
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("wrapped file lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(string(out), "\n") != strings.Count(string(src), "\n") {
		t.Errorf("wrapped file has %d lines, want %d", strings.Count(string(out), "\n"), strings.Count(string(src), "\n"))
	}
	none, err := wrapNowCalls("q.go", []byte("package p\n\nimport \"time\"\n\nvar d = time.Minute\n"), "example.com/m/zzwitnessrt")
	if err != nil || none != nil {
		t.Errorf("a file without time.Now(): %q, %v; want nil", none, err)
	}
}
