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

// TestSplitClock: replay prints the clock a call is given as times, not
// among the inputs.
func TestSplitClock(t *testing.T) {
	rest, clock := SplitClock(map[string]string{"cost": "2", ClockInput: "946684800000000000,946684860500000000"})
	if len(rest) != 1 || rest["cost"] != "2" || clock != "2000-01-01T00:00:00Z, 2000-01-01T00:01:00.5Z" {
		t.Errorf("SplitClock: %v, %q", rest, clock)
	}
	if rest, clock := SplitClock(map[string]string{"cost": "2"}); len(rest) != 1 || clock != "" {
		t.Errorf("SplitClock without a clock: %v, %q", rest, clock)
	}
}
