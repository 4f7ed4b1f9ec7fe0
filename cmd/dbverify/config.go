package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"
)

// configFile is the name of the project configuration dbverify reads
// from the directory it runs in (or -C DIR) when --config is not given.
const configFile = ".dbverify.yaml"

// configurable lists the check flags a configuration file may set; the
// command line overrides it. Output and debugging flags stay on the
// command line.
var configurable = map[string]bool{
	"constraint": true, "table": true, "schema": true, "assume": true, "entry": true, "dialect": true,
	"max-refinements": true, "timeout": true, "time-limit": true, "deadline": true, "engine": true, "jobs": true,
	"rlimit": true, "max-queries": true, "max-predicates": true, "max-states": true,
	"concurrent": true, "isolation": true, "por": true,
	"fail-on-unknown": true, "no-infer-key": true, "check-generated": true, "config-inputs": true, "assume-no-overflow": true, "cache-dir": true, "no-cache": true, "sarif-category": true,
}

// applyConfig reads the configuration (--config, else .dbverify.yaml in
// the run's directory if there is one) and sets every flag it names that
// the command line did not set. It returns the file it read ("" = none).
//
//	# .dbverify.yaml
//	constraint:
//	  - accounts.balance >= 0
//	  - stock >= 0 AND stock <= capacity
//	schema: db/migrations
//	assume: [products.price >= 0]
//	fail-on-unknown: true
//	time-limit: 30s
func applyConfig(c *cli.Context) (string, error) {
	path := c.String("config")
	if path == "" {
		path = filepath.Join(c.String("dir"), configFile)
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return "", nil
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("--config: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if len(doc.Content) == 0 {
		return path, nil // empty file
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return "", fmt.Errorf("%s:%d: want a mapping of flag names to values", path, m.Line)
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if !configurable[k.Value] {
			return "", fmt.Errorf("%s:%d: unknown setting %q (settings: the check flags without dashes, e.g. constraint, schema, assume, fail-on-unknown)", path, k.Line, k.Value)
		}
		if c.IsSet(k.Value) {
			continue // the command line wins
		}
		var values []string
		switch v.Kind {
		case yaml.ScalarNode:
			values = []string{v.Value}
		case yaml.SequenceNode:
			for _, e := range v.Content {
				if e.Kind != yaml.ScalarNode {
					return "", fmt.Errorf("%s:%d: %s: want a list of strings", path, e.Line, k.Value)
				}
				values = append(values, e.Value)
			}
		default:
			return "", fmt.Errorf("%s:%d: %s: want a value or a list", path, v.Line, k.Value)
		}
		if k.Value == "schema" || k.Value == "cache-dir" {
			// Paths in the file are relative to the file.
			for j, p := range values {
				if !filepath.IsAbs(p) {
					values[j] = filepath.Join(filepath.Dir(path), p)
				}
			}
		}
		for _, val := range values {
			if err := c.Set(k.Value, val); err != nil {
				return "", fmt.Errorf("%s:%d: %s: %w", path, v.Line, k.Value, err)
			}
		}
	}
	return path, nil
}
