package pipeline

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/refine"
)

// resultCache keeps results on disk, keyed by the tool's identity, the
// engine's options and the lowered program — which holds the constraint,
// the facts, the schema's keys and every source position the trace
// shows — so that a second run over unchanged code skips verification.
// A decided result (SAFE, UNSAFE) is kept under a key without the work
// limits (it holds whatever the limits); an UNKNOWN under one with them,
// and only when nothing but work decided it (see deterministic): a run
// with higher limits does not read it. The concurrent check of a result
// is kept whole (concurrentcache.go). The cache is an optimisation: a
// file that cannot be read or written is a miss.
type resultCache struct{ dir string }

// cacheKeys are the keys of one verification: of its decided result and
// of its UNKNOWN.
type cacheKeys struct{ decided, unknown string }

// keys returns the cache keys of one verification.
func (c resultCache) keys(tool string, cfg Config, p *ir.Program) cacheKeys {
	h := sha256.New()
	fmt.Fprintf(h, "dbverify result cache v2\x00%s\x00%s\x00%d\x00%d\x00", tool, cfg.Engine, cfg.MaxRefinements, cfg.MaxPaths)
	if cfg.ConfigInputs {
		fmt.Fprint(h, "config-inputs\x00")
	}
	fmt.Fprintln(h, p.String())
	// Every field of the program, the approximation marks of its
	// variables and the statements' DBSites included (the text leaves
	// them out).
	writeFingerprint(h, p)
	decided := hex.EncodeToString(h.Sum(nil))
	fmt.Fprintf(h, "\x00unknown\x00%s", workLimits(cfg))
	return cacheKeys{decided: decided, unknown: hex.EncodeToString(h.Sum(nil))}
}

// workLimits names the work limits of cfg that may decide an UNKNOWN.
func workLimits(cfg Config) string {
	return fmt.Sprintf("rlimit %d queries %d predicates %d states %d refinements %d paths %d",
		cfg.RLimit, cfg.MaxQueries, cfg.MaxPredicates, cfg.MaxStates, cfg.MaxRefinements, cfg.MaxPaths)
}

// writeFingerprint writes fingerprint(v) to h through a buffer.
func writeFingerprint(h hash.Hash, v any) {
	w := bufio.NewWriter(h)
	fingerprint(w, v)
	w.Flush()
}

func (c resultCache) path(key string) string {
	return filepath.Join(c.dir, key[:2], key+".json")
}

// lookup returns the result kept under keys, decided first.
func (c resultCache) lookup(keys cacheKeys) (*refine.Result, bool) {
	for _, k := range []string{keys.decided, keys.unknown} {
		var res refine.Result
		if c.load(k, &res) {
			return &res, true
		}
	}
	return nil, false
}

// put keeps res under keys: a decided result always, an UNKNOWN when
// only work decided it (clockFree: no wall clock acted on the check).
func (c resultCache) put(keys cacheKeys, res *refine.Result, clockFree bool) {
	switch {
	case res.Verdict == refine.Safe || res.Verdict == refine.Unsafe:
		c.store(keys.decided, res)
	case deterministic(res.Reason, clockFree):
		c.store(keys.unknown, res)
	}
}

// deterministic reports whether an UNKNOWN with reason is what every run
// of the same input under the same work limits answers: no wall clock
// acted on the check (clockFree: no time limit reached, no solver check
// left Unknown by a clock, the run not cancelled), its
// reason names no clock, no cancellation and no internal error (a Z3
// failure may be transient).
func deterministic(reason string, clockFree bool) bool {
	if !clockFree || reason == "" || refine.LimitOf(reason) == refine.LimitWallClock {
		return false
	}
	for _, p := range []string{refine.ReasonCancelled, refine.ReasonDeadline, "internal:", "time limit"} {
		if strings.Contains(reason, p) {
			return false
		}
	}
	return true
}

// load reads the value kept under key into v.
func (c resultCache) load(key string, v any) bool {
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		return false
	}
	return json.Unmarshal(data, v) == nil
}

// store keeps v under key.
func (c resultCache) store(key string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	// A file of its own, renamed: concurrent runs (and workers) never
	// read half a file nor write into one another's.
	f, err := os.CreateTemp(filepath.Dir(p), "tmp-*")
	if err != nil {
		return
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), p) != nil {
		os.Remove(f.Name())
	}
}
