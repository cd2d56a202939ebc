package tfdiag

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The scanner TestSummariesFollowThePattern reads the source with: it finds
// every call of a diagnostic constructor under a root and resolves its
// summary to text where the source lets it (a literal, a constant, a
// variable set from those, or a concatenation of them).

// summaryCall says where a diagnostic constructor takes its summary, and
// whether it makes an error or a warning.
type summaryCall struct {
	arg   int
	error bool
}

// summaryCalls are the constructors of diagnostics the provider calls:
// the framework's Diagnostics methods and diag constructors, and AddError
// and AddWarning of this package (three arguments before the summary's
// index name them apart from the framework's).
var summaryCalls = map[string]summaryCall{
	"AddError":                      {0, true},
	"AddAttributeError":             {1, true},
	"NewErrorDiagnostic":            {0, true},
	"NewAttributeErrorDiagnostic":   {1, true},
	"AddWarning":                    {0, false},
	"AddAttributeWarning":           {1, false},
	"NewWarningDiagnostic":          {0, false},
	"NewAttributeWarningDiagnostic": {1, false},
}

// tfdiagArgs is where this package's AddError and AddWarning take the
// summary: AddError(diags, at, summary, detail, err).
const tfdiagArgs = 2

// summarySite is one summary the source gives a diagnostic.
type summarySite struct {
	pos   string
	text  string // the summary, with "verb" for a part only known at run time
	error bool
}

func scanSummaries(t *testing.T, root string) (sites []summarySite, passedIn int) {
	t.Helper()
	fset := token.NewFileSet()
	pkgs := map[string][]*ast.File{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "emulator" || d.Name() == "testdata") {
			// Emulators speak the backends' dialects, not Terraform's.
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		pkgs[filepath.Dir(p)] = append(pkgs[filepath.Dir(p)], f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	exported := map[string]ast.Expr{} // "pkg.Name" → value, for cross-package constants
	for _, files := range pkgs {
		for _, f := range files {
			for name, e := range packageValues(f) {
				if ast.IsExported(name) {
					exported[f.Name.Name+"."+name] = e
				}
			}
		}
	}
	dirs := make([]string, 0, len(pkgs))
	for d := range pkgs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		files := pkgs[dir]
		values := map[string]ast.Expr{}
		helpers := map[string]summaryCall{}
		for _, f := range files {
			for n, e := range packageValues(f) {
				values[n] = e
			}
			for n, c := range summaryHelpers(f) {
				helpers[n] = c
			}
		}
		for _, f := range files {
			inTfdiag := f.Name.Name == "tfdiag"
			for _, decl := range f.Decls {
				fn, _ := decl.(*ast.FuncDecl)
				ast.Inspect(decl, func(n ast.Node) bool {
					if kv, ok := n.(*ast.KeyValueExpr); ok {
						// A validator's Summary field (tfvalidate.Accounts).
						if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Summary" {
							r := resolver{fn: fn, values: values, exported: exported}
							if text, ok := r.eval(kv.Value, 0); ok {
								sites = append(sites, summarySite{pos: fset.Position(kv.Pos()).String(), text: text, error: true})
							}
						}
						return true
					}
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					name, own := calleeName(call, inTfdiag)
					sc, ok := summaryCalls[name]
					arg := sc.arg
					switch {
					case ok && own:
						arg = tfdiagArgs
					case !ok:
						// The package's own helpers that take a summary
						// and hand it on (addSettingError).
						if sc, ok = helpers[name]; !ok {
							return true
						}
						arg = sc.arg
					}
					if len(call.Args) <= arg {
						return true
					}
					e := call.Args[arg]
					r := resolver{fn: fn, values: values, exported: exported}
					text, ok := r.eval(e, 0)
					if !ok {
						if r.param(e) || field(e) {
							passedIn++
							return true
						}
						t.Errorf("%s: a summary the scan cannot read (%T); use a literal or a constant", fset.Position(e.Pos()), e)
						return true
					}
					sites = append(sites, summarySite{pos: fset.Position(e.Pos()).String(), text: text, error: sc.error})
					return true
				})
			}
		}
	}
	return sites, passedIn
}

// summaryHelpers are a file's functions and methods with a parameter
// named summary: where it is, and whether the function warns (its name
// says so).
func summaryHelpers(f *ast.File) map[string]summaryCall {
	out := map[string]summaryCall{}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		i := 0
		for _, p := range fn.Type.Params.List {
			for _, n := range p.Names {
				if n.Name == "summary" {
					out[fn.Name.Name] = summaryCall{arg: i, error: !warns(fn)}
				}
				i++
			}
			if len(p.Names) == 0 {
				i++
			}
		}
	}
	return out
}

// warns reports whether fn hands its summary parameter to a warning's
// constructor; a helper that hands it to an error's, or on to another
// helper, is held to an error's form.
func warns(fn *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return !found
		}
		name, own := calleeName(call, false)
		sc, ok := summaryCalls[name]
		if !ok || sc.error {
			return true
		}
		arg := sc.arg
		if own {
			arg = tfdiagArgs
		}
		if arg < len(call.Args) {
			if id, ok := call.Args[arg].(*ast.Ident); ok && id.Name == "summary" {
				found = true
			}
		}
		return !found
	})
	return found
}

// field reports whether e is a field of a value (v.Summary), set where
// the value is made and checked there (see the KeyValueExpr case).
func field(e ast.Expr) bool {
	_, ok := e.(*ast.SelectorExpr)
	return ok
}

// calleeName is the name of the function call calls, and whether it is
// this package's AddError or AddWarning.
func calleeName(call *ast.CallExpr, inTfdiag bool) (string, bool) {
	switch f := call.Fun.(type) {
	case *ast.SelectorExpr:
		x, _ := f.X.(*ast.Ident)
		own := x != nil && x.Name == "tfdiag" && (f.Sel.Name == "AddError" || f.Sel.Name == "AddWarning")
		return f.Sel.Name, own
	case *ast.Ident:
		return f.Name, inTfdiag && (f.Name == "AddError" || f.Name == "AddWarning")
	}
	return "", false
}

// packageValues are a file's package-level constants and variables with
// one value each.
func packageValues(f *ast.File) map[string]ast.Expr {
	out := map[string]ast.Expr{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || (g.Tok != token.CONST && g.Tok != token.VAR) {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			for i, n := range v.Names {
				if i < len(v.Values) {
					out[n.Name] = v.Values[i]
				}
			}
		}
	}
	return out
}

type resolver struct {
	fn       *ast.FuncDecl
	values   map[string]ast.Expr
	exported map[string]ast.Expr
}

// eval is the string e holds; "verb" stands for a part that is a
// function's parameter (Unable to "+op+" provider account).
func (r resolver) eval(e ast.Expr, depth int) (string, bool) {
	if depth > 8 {
		return "", false
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.ParenExpr:
		return r.eval(e.X, depth+1)
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		a, ok1 := r.evalPart(e.X, depth+1)
		b, ok2 := r.evalPart(e.Y, depth+1)
		return a + b, ok1 && ok2
	case *ast.Ident:
		if v := r.local(e.Name); v != nil {
			return r.eval(v, depth+1)
		}
		if v, ok := r.values[e.Name]; ok {
			return r.eval(v, depth+1)
		}
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			if v, ok := r.exported[x.Name+"."+e.Sel.Name]; ok {
				return r.eval(v, depth+1)
			}
		}
	}
	return "", false
}

// evalPart is eval for a part of a concatenation, where a parameter
// stands for the verb.
func (r resolver) evalPart(e ast.Expr, depth int) (string, bool) {
	if s, ok := r.eval(e, depth); ok {
		return s, true
	}
	if r.param(e) {
		return "verb", true
	}
	return "", false
}

// local is the value the enclosing function gives name, when it gives it
// one (const name = …, name := …).
func (r resolver) local(name string) ast.Expr {
	if r.fn == nil || r.fn.Body == nil {
		return nil
	}
	var out ast.Expr
	ast.Inspect(r.fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if id, ok := n.Lhs[0].(*ast.Ident); ok && id.Name == name && out == nil {
					out = n.Rhs[0]
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if id.Name == name && i < len(n.Values) && out == nil {
					out = n.Values[i]
				}
			}
		}
		return true
	})
	return out
}

// param reports whether e is a parameter of the enclosing function (or of
// a function literal within it): its value is made by the caller.
func (r resolver) param(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok || r.fn == nil {
		return false
	}
	found := false
	ast.Inspect(r.fn, func(n ast.Node) bool {
		var ft *ast.FuncType
		switch n := n.(type) {
		case *ast.FuncDecl:
			ft = n.Type
		case *ast.FuncLit:
			ft = n.Type
		}
		if ft != nil && ft.Params != nil {
			for _, f := range ft.Params.List {
				for _, n := range f.Names {
					if n.Name == id.Name {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}
