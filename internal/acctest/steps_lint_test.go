package acctest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoCheckBesideExpectError fails for any test step, anywhere in the
// module, that sets both Check and ExpectError: terraform-plugin-testing
// never runs the Check of a step that expects an error, so its assertions
// pass whatever happens. Steps are found as composite literals with both
// keys (their type is usually elided inside []resource.TestStep{...}) and as
// variables that get one key in a literal and the other by assignment, or
// both by assignment, within one function.
func TestNoCheckBesideExpectError(t *testing.T) {
	root := moduleRoot(t)
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, pos := range checkBesideExpectError(f) {
			rel, _ := filepath.Rel(root, fset.Position(pos).Filename)
			t.Errorf("%s:%d: a test step sets both Check and ExpectError, so its Check never runs; "+
				"assert in the next step's PreConfig or after resource.Test, against the emulator",
				rel, fset.Position(pos).Line)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 10 {
		t.Fatalf("only %d test files found under %s; the check would prove nothing", files, root)
	}
}

// checkBesideExpectError returns where f has a step with both keys.
func checkBesideExpectError(f *ast.File) []token.Pos {
	var found []token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			if keys := literalKeys(n); keys["Check"] && keys["ExpectError"] {
				found = append(found, n.Pos())
			}
		case *ast.FuncDecl:
			found = append(found, stepVariables(n.Body)...)
		case *ast.FuncLit:
			found = append(found, stepVariables(n.Body)...)
		}
		return true
	})
	return found
}

func literalKeys(cl *ast.CompositeLit) map[string]bool {
	keys := map[string]bool{}
	for _, e := range cl.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				keys[id.Name] = true
			}
		}
	}
	return keys
}

// stepVariables finds variables of one function body that end up with both
// keys: `step := resource.TestStep{ExpectError: ...}` and later
// `step.Check = ...`, or two assignments.
func stepVariables(body *ast.BlockStmt) []token.Pos {
	if body == nil {
		return nil
	}
	keys := map[string]map[string]bool{}
	first := map[string]token.Pos{}
	// A literal with both keys is reported as a literal already.
	literalHasBoth := map[string]bool{}
	set := func(name string, pos token.Pos, names ...string) {
		if keys[name] == nil {
			keys[name] = map[string]bool{}
			first[name] = pos
		}
		for _, k := range names {
			keys[name][k] = true
		}
	}
	fromLiteral := func(name string, pos token.Pos, v ast.Expr) {
		if cl, ok := v.(*ast.CompositeLit); ok {
			lk := literalKeys(cl)
			literalHasBoth[name] = literalHasBoth[name] || lk["Check"] && lk["ExpectError"]
			for k := range lk {
				set(name, pos, k)
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			// Its variables are its own; checkBesideExpectError visits it.
			return false
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				switch lhs := lhs.(type) {
				case *ast.Ident:
					if i < len(n.Rhs) {
						fromLiteral(lhs.Name, lhs.Pos(), n.Rhs[i])
					}
				case *ast.SelectorExpr:
					if x, ok := lhs.X.(*ast.Ident); ok {
						set(x.Name, lhs.Pos(), lhs.Sel.Name)
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if i < len(n.Values) {
					fromLiteral(id.Name, id.Pos(), n.Values[i])
				}
			}
		}
		return true
	})
	var found []token.Pos
	for name, k := range keys {
		if k["Check"] && k["ExpectError"] && !literalHasBoth[name] {
			found = append(found, first[name])
		}
	}
	return found
}

// moduleRoot is the directory of go.mod above the test's directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}
