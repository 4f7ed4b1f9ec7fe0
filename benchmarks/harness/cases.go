package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Verdicts as dbverify prints them and expect.json spells them.
const (
	Safe    = "SAFE"
	Unsafe  = "UNSAFE"
	Unknown = "UNKNOWN"
)

// ExpectFile is the name of the file that makes a directory a case.
const ExpectFile = "expect.json"

// Expectation is one (entry point, constraint) of a case with the verdict
// dbverify must give today (Verdict) and the right answer once every
// feature lands (Final).
type Expectation struct {
	Entry             string   `json:"entry"`
	Constraint        string   `json:"constraint"`
	Verdict           string   `json:"verdict"`
	Final             string   `json:"final"`
	Why               string   `json:"why"`
	TraceContains     []string `json:"trace_contains"`
	PredicatesContain []string `json:"predicates_contain"`
	// Schedule is, for a concurrent (--concurrent) UNSAFE, the violating
	// schedule confirmed on a real engine (witness/schedule's format).
	Schedule json.RawMessage `json:"schedule,omitempty"`
}

// Case is one directory of the corpus: a Go package and its expect.json.
type Case struct {
	// Name is the directory relative to the corpus root, with forward
	// slashes (e.g. "core/atm_safe").
	Name string `json:"-"`
	// Dir is the absolute directory; dbverify runs there.
	Dir string `json:"-"`

	Description string        `json:"description"`
	Args        []string      `json:"args"`
	Fast        bool          `json:"fast"`
	Expect      []Expectation `json:"expect"`
}

// ReadCase reads dir/expect.json. name is the case's name in reports.
func ReadCase(dir, name string) (*Case, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(abs, ExpectFile))
	if err != nil {
		return nil, err
	}
	c := &Case{Name: name, Dir: abs}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(abs, ExpectFile), err)
	}
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(abs, ExpectFile), err)
	}
	return c, nil
}

func validVerdict(v string) bool { return v == Safe || v == Unsafe || v == Unknown }

func (c *Case) validate() error {
	if len(c.Expect) == 0 {
		return fmt.Errorf("no expectations")
	}
	seen := map[Key]bool{}
	for i, e := range c.Expect {
		if e.Entry == "" || e.Constraint == "" {
			return fmt.Errorf("expect[%d]: entry and constraint are required", i)
		}
		if !validVerdict(e.Verdict) {
			return fmt.Errorf("expect[%d]: verdict %q is not SAFE, UNSAFE or UNKNOWN", i, e.Verdict)
		}
		if e.Final != "" && !validVerdict(e.Final) {
			return fmt.Errorf("expect[%d]: final %q is not SAFE, UNSAFE or UNKNOWN", i, e.Final)
		}
		if e.Verdict == Unknown && e.Final != Safe && e.Final != Unsafe {
			return fmt.Errorf("expect[%d]: verdict UNKNOWN needs a final SAFE or UNSAFE", i)
		}
		if e.Verdict != Unknown && e.Final != "" && e.Final != e.Verdict {
			return fmt.Errorf("expect[%d]: verdict %s and final %s differ but verdict is not UNKNOWN", i, e.Verdict, e.Final)
		}
		k := KeyOf(e.Entry, e.Constraint)
		if seen[k] {
			return fmt.Errorf("expect[%d]: duplicate (%s, %s)", i, e.Entry, e.Constraint)
		}
		seen[k] = true
	}
	return nil
}

// FinalVerdict is the right answer: Final, or Verdict when Final is empty.
func (e *Expectation) FinalVerdict() string {
	if e.Final != "" {
		return e.Final
	}
	return e.Verdict
}

// LoadCases walks root for directories holding an expect.json and reads
// them, sorted by name. Hidden directories, testdata and vendor are skipped.
func LoadCases(root string) ([]*Case, error) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	var cases []*Case
	err = filepath.WalkDir(absRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			n := d.Name()
			if path != absRoot && (strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || n == "testdata" || n == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() != ExpectFile {
			return nil
		}
		dir := filepath.Dir(path)
		rel, err := filepath.Rel(absRoot, dir)
		if err != nil {
			return err
		}
		c, err := ReadCase(dir, filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		cases = append(cases, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("no %s under %s", ExpectFile, absRoot)
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].Name < cases[j].Name })
	return cases, nil
}

// Key identifies a result: the entry point and the constraint with all
// white space removed (constraints are matched white-space-insensitively).
type Key struct {
	Entry      string
	Constraint string
}

// KeyOf builds the Key of an (entry, constraint) pair.
func KeyOf(entry, constraint string) Key {
	return Key{Entry: strings.TrimSpace(entry), Constraint: strings.Join(strings.Fields(constraint), "")}
}

// ShortEntry strips the package path of the case from an entry name when
// it is the case's own package: "example.com/corpus/core/atm_safe.Withdraw"
// becomes "Withdraw", "example.com/corpus/x.(*Store).Pay" "(*Store).Pay".
func ShortEntry(entry string) string {
	slash := strings.LastIndexByte(entry, '/')
	rest := entry[slash+1:]
	if dot := strings.IndexByte(rest, '.'); dot >= 0 {
		return rest[dot+1:]
	}
	return entry
}
