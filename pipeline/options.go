package pipeline

import (
	"errors"
	"fmt"

	"github.com/dbverify/dbverify/sqlparse"
)

// Engine names a checker (package refine). The zero value is EngineLBE.
// It implements flag.Value: Set rejects a name that is not an engine.
type Engine string

const (
	// EngineLBE is large-block encoding: a loop-free program decided by
	// one formula, loops abstracted at their heads only, fixpoint when
	// that gives up.
	EngineLBE Engine = "lbe"
	// EngineFixpoint is CEGAR with per-statement predicate abstraction.
	EngineFixpoint Engine = "fixpoint"
	// EnginePaths is the seed paper's path enumeration, a baseline for
	// the scaling study, listing at most Config.MaxPaths paths per
	// abstraction.
	EnginePaths Engine = "paths"
)

// Engines lists the engines, the default first.
func Engines() []Engine { return []Engine{EngineLBE, EngineFixpoint, EnginePaths} }

func (e Engine) String() string {
	if e == "" {
		return string(EngineLBE)
	}
	return string(e)
}

// Set sets e to the engine named s.
func (e *Engine) Set(s string) error {
	for _, x := range Engines() {
		if Engine(s) == x {
			*e = x
			return nil
		}
	}
	return fmt.Errorf("unknown engine %q (want lbe, fixpoint or paths)", s)
}

// Dialect is the SQL dialect the program's SQL is read in: "mysql",
// "sqlite" or "postgres"; "" = the frontend detects it (sql.Open, driver
// imports, $n placeholders). It implements flag.Value: Set rejects a name
// that is not a dialect.
type Dialect string

func (d Dialect) String() string { return string(d) }

// Set sets d to the dialect named s ("" = detect).
func (d *Dialect) Set(s string) error {
	if s != "" {
		if _, err := sqlparse.ParseDialect(s); err != nil {
			return err
		}
	}
	*d = Dialect(s)
	return nil
}

// validate checks the option values of cfg, in one place: a Config built
// by hand gets the same errors as the command line.
func (cfg *Config) validate() error {
	if len(cfg.Constraints) == 0 && cfg.Schema == "" {
		return &UsageError{errors.New("no constraint: pass --constraint EXPR (or --schema with CHECK constraints)")}
	}
	if cfg.Engine != "" {
		if err := new(Engine).Set(string(cfg.Engine)); err != nil {
			return &UsageError{err}
		}
	}
	if err := new(Dialect).Set(string(cfg.Dialect)); err != nil {
		return &UsageError{err}
	}
	if _, err := parseIsolation(cfg.Isolation); err != nil {
		return &UsageError{err}
	}
	if cfg.Requests != 0 && (cfg.Requests < 2 || cfg.Requests > 3) {
		return &UsageError{fmt.Errorf("--requests %d: want 2 or 3", cfg.Requests)}
	}
	return nil
}

// withDefaults fills the zero fields of cfg with their defaults.
func (cfg Config) withDefaults() Config {
	if cfg.Engine == "" {
		cfg.Engine = EngineLBE
	}
	if cfg.MaxRefinements == 0 {
		cfg.MaxRefinements = 20
	}
	if cfg.MaxPaths == 0 {
		cfg.MaxPaths = 100000
	}
	cfg.Isolation, _ = parseIsolation(cfg.Isolation)
	return cfg
}
