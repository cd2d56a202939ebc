package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// notesCall is a function that takes a key of Definition.Notes: Registry.Notes,
// the local notes := reg.Notes of the schema files, rescueNotes.
var notesCall = regexp.MustCompile(`(?i)notes$`)

// TestTerraformLayerReadsOnlyDocumentedNotes: every key of Definition.Notes
// the Terraform layer reads (an index of a Notes map, or the first key-like
// argument of a function whose name ends in "notes") is one of
// adapter.NoteKeys, where each
// is documented, so the list a new backend reads is the list that is read.
// It reads the source of the packages above the contract: everything under
// internal/ but the contract, its adapters, the emulators and the test
// helpers.
func TestTerraformLayerReadsOnlyDocumentedNotes(t *testing.T) {
	consts := adapterConstants(t)
	fset := token.NewFileSet()
	var reads []string
	// Every depth: a package nested in another reads notes as well.
	skipped := []string{filepath.Join("..", "adapter"), filepath.Join("..", "emulator"), filepath.Join("..", "acctest")}
	err := filepath.WalkDir("..", func(name string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (slices.Contains(skipped, name) || d.Name() == "testdata"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go"):
			return nil
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var keys []ast.Expr
			switch n := n.(type) {
			case *ast.IndexExpr:
				if sel, ok := n.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Notes" {
					keys = append(keys, n.Index)
				}
			case *ast.CallExpr:
				// The key is its first argument that can be one
				// (rescueNotes(reg, key, lead)).
				for _, arg := range n.Args {
					if _, ok := noteKey(arg, consts); ok && notesCall.MatchString(funcName(n.Fun)) {
						keys = append(keys, arg)
						break
					}
				}
			}
			for _, k := range keys {
				key, ok := noteKey(k, consts)
				if !ok {
					continue
				}
				reads = append(reads, key)
				if !slices.Contains(adapter.NoteKeys, key) {
					t.Errorf("%s reads the note %q, which adapter.NoteKeys does not document", fset.Position(k.Pos()), key)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Guard against a scan that finds nothing (a moved package, a renamed
	// helper) and so passes for the wrong reason.
	for _, key := range []string{adapter.FieldOfferID, adapter.FieldUserData, adapter.NoteRescue, adapter.NoteRescueLogin} {
		if !slices.Contains(reads, key) {
			t.Errorf("the scan found no read of %q, which the Terraform layer reads; it no longer sees what it checks", key)
		}
	}
}

func funcName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}

// noteKey is the value of a key expression: a string literal, or a
// constant of package adapter named Field… or Note…; ok is false for
// anything else (a parameter, a function's other arguments).
func noteKey(e ast.Expr, consts map[string]string) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			v, err := strconv.Unquote(e.Value)
			return v, err == nil
		}
	case *ast.SelectorExpr:
		if pkg, ok := e.X.(*ast.Ident); ok && pkg.Name == "adapter" &&
			(strings.HasPrefix(e.Sel.Name, "Field") || strings.HasPrefix(e.Sel.Name, "Note")) {
			v, ok := consts[e.Sel.Name]
			return v, ok
		}
	}
	return "", false
}

// adapterConstants reads the string constants of package adapter, by name.
func adapterConstants(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	files, _ := filepath.Glob(filepath.Join("..", "adapter", "*.go"))
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i < len(vs.Values) {
						if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							out[n.Name], _ = strconv.Unquote(lit.Value)
						}
					}
				}
			}
		}
	}
	return out
}
