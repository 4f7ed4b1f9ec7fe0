package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/refine"
)

// resultCache keeps decided results (SAFE, UNSAFE) on disk, keyed by the
// tool's identity, the engine's options and the lowered program — which
// holds the constraint, the facts, the schema's keys and every source
// position the trace shows — so that a second run over unchanged code
// skips verification. UNKNOWN results are not kept: a limit may be
// reached differently next time. The cache is an optimisation: a file
// that cannot be read or written is a miss.
type resultCache struct{ dir string }

// key returns the cache key of one verification.
func (c resultCache) key(tool string, cfg Config, p *ir.Program) string {
	h := sha256.New()
	fmt.Fprintf(h, "dbverify result cache v1\x00%s\x00%s\x00%d\x00%d\x00", tool, cfg.Engine, cfg.MaxRefinements, cfg.MaxPaths)
	if cfg.ConfigInputs {
		// (Approximation marks are not part of the program's text.)
		fmt.Fprint(h, "config-inputs\x00")
	}
	fmt.Fprintln(h, p.String())
	for _, e := range p.Edges {
		// (Info.DB is a pointer: its contents, not its address.)
		info := e.Stmt.Source()
		site := info.DB
		info.DB = nil
		fmt.Fprintf(h, "%+v\n", info)
		if site != nil {
			fmt.Fprintf(h, "db %d %s %v\n", site.Tx, site.Op, site.Args)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c resultCache) path(key string) string {
	return filepath.Join(c.dir, key[:2], key+".json")
}

func (c resultCache) get(key string) (*refine.Result, bool) {
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		return nil, false
	}
	var res refine.Result
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, false
	}
	return &res, true
}

func (c resultCache) put(key string, res *refine.Result) {
	if res.Verdict != refine.Safe && res.Verdict != refine.Unsafe {
		return
	}
	data, err := json.Marshal(res)
	if err != nil {
		return
	}
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	tmp := p + ".tmp"
	if os.WriteFile(tmp, data, 0o644) == nil {
		os.Rename(tmp, p) // atomic: concurrent runs never read half a file
	}
}
