// Command apigen writes the files generated from the API table of package bindings:
//
//	web/api.gen.js   the table as data (what qif.js interprets, qif.describe() returns and the
//	                 page's worker client reads to know where callbacks go)
//	web/qif.gen.js   one wrapper per function, with its own name and parameters
//	web/qif.d.ts     the TypeScript declarations
//	docs/api.md      the API reference
//
// Run it from anywhere in the repository: go generate ./bindings (or go run ./bindings/apigen).
// With -check it writes nothing and fails when a checked-in file differs from what the table
// produces; the package's test does the same.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	check := flag.Bool("check", false, "report files that differ from the table instead of writing them")
	flag.Parse()
	root, err := repoRoot()
	if err != nil {
		fail(err)
	}
	if err := checkSplit(); err != nil {
		fail(err)
	}
	files := Generate()
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	stale := 0
	for _, p := range paths {
		full := filepath.Join(root, filepath.FromSlash(p))
		old, _ := os.ReadFile(full)
		if bytes.Equal(old, files[p]) {
			continue
		}
		if *check {
			fmt.Fprintf(os.Stderr, "%s differs from the table\n", p)
			stale++
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			fail(err)
		}
		if err := os.WriteFile(full, files[p], 0o644); err != nil {
			fail(err)
		}
		fmt.Println("wrote", p)
	}
	if stale > 0 {
		fail(fmt.Errorf("%d generated files are stale: run go generate ./bindings", stale))
	}
}

// repoRoot is the nearest directory above the working directory that holds go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("apigen: no go.mod above the working directory")
		}
		dir = parent
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "apigen:", err)
	os.Exit(1)
}
