package adapter

import (
	"context"
	"errors"
	"os"
	"strings"
)

// Secret references name where a secret lives, never the secret itself:
//
//	env://NAME       an environment variable of the provider process
//	file:///path     a file's content, trailing newline removed
//	provider://NAME  an entry of the provider block's sensitive secrets map
//
// They are resolved on every request and never cached past it, so a rotated
// secret takes effect at once and a value lives no longer than one call.
const refSyntax = "env://NAME, file:///absolute/path or provider://NAME"

// ParseRef checks that s is a secret reference. The error never repeats a
// value without "://", since a user who pasted a token where a reference
// belongs must not see it printed back into logs, and shows a malformed
// reference only by its scheme, since its name part may be the secret.
func ParseRef(s string) (scheme, name string, err error) {
	scheme, name, ok := strings.Cut(s, "://")
	switch {
	case !ok:
		return "", "", Errorf(InvalidConfig, "the value is not a secret reference (the value is not shown, it may be a secret); use %s", refSyntax)
	case wellFormedRef(s):
		return scheme, name, nil
	case isRefScheme(scheme):
		return "", "", Errorf(InvalidConfig, "secret reference %s is malformed (the rest is not shown, it may be a secret); use %s", shownRef(s), refSyntax)
	case plainScheme(scheme):
		return "", "", Errorf(InvalidConfig, "secret reference %s: scheme %q is not known; use %s", shownRef(s), scheme, refSyntax)
	}
	return "", "", Errorf(InvalidConfig, "the value is not a secret reference (the value is not shown, it may be a secret); use %s", refSyntax)
}

// isRefScheme reports whether scheme is one of the reference schemes.
func isRefScheme(scheme string) bool {
	return scheme == "env" || scheme == "file" || scheme == "provider"
}

// wellFormedRef reports whether s is a reference ParseRef accepts. An env://
// or provider:// name shaped like a credential (see tokenShaped) is refused:
// it is a secret pasted where the name goes, which would otherwise be
// repeated in ids, plans and messages as a harmless name, and a token is a
// valid variable or provider secret name. A file:// path is not checked: a
// pasted token is no absolute path, which the path must be, while a real
// path's directories may well be long and mix case and digits (a CI
// runner's or t.TempDir's /tmp/TestRobotBootstrap123456789/001).
func wellFormedRef(s string) bool {
	scheme, name, ok := strings.Cut(s, "://")
	switch {
	case !ok:
		return false
	case scheme == "env":
		return validEnvName(name) && !tokenShaped(name)
	case scheme == "provider":
		return name != "" && !strings.ContainsAny(name, "/ ") && !tokenShaped(name)
	case scheme == "file":
		return strings.HasPrefix(name, "/") && len(name) > 1
	}
	return false
}

func validEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// Secrets resolves a reference to its value.
type Secrets interface {
	Resolve(ctx context.Context, ref string) (string, error)
}

// SecretResolver resolves the three reference schemes. Zero functions fall
// back to the process environment and file system.
type SecretResolver struct {
	Provider  map[string]string
	LookupEnv func(string) (string, bool)
	ReadFile  func(string) ([]byte, error)
}

// ErrUnresolved marks the failure of a well-formed reference that names no
// secret here: the variable is not set, the file cannot be read, the
// provider block has no such entry, or the secret is empty. Plan-time
// checks only warn about it, since a saved plan may be applied where the
// secret is; apply fails on it.
var ErrUnresolved = errors.New("the secret reference cannot be resolved here")

// Unresolved reports whether err comes from a reference that names no
// secret here (ErrUnresolved).
func Unresolved(err error) bool { return errors.Is(err, ErrUnresolved) }

// Resolve returns the secret's value. Errors are InvalidConfig and name the
// reference, never the value; those of a well-formed reference that names no
// secret wrap ErrUnresolved.
func (r SecretResolver) Resolve(_ context.Context, ref string) (string, error) {
	scheme, name, err := ParseRef(ref)
	if err != nil {
		return "", err
	}
	unresolved := func(format string, args ...any) error {
		e := Errorf(InvalidConfig, format, args...)
		e.Err = ErrUnresolved
		return e
	}
	var value string
	switch scheme {
	case "env":
		lookup := r.LookupEnv
		if lookup == nil {
			lookup = os.LookupEnv
		}
		v, ok := lookup(name)
		if !ok {
			return "", unresolved("secret reference %s: environment variable %s is not set in the provider's environment", ref, name)
		}
		value = v
	case "file":
		read := r.ReadFile
		if read == nil {
			read = os.ReadFile
		}
		b, err := read(name)
		if err != nil {
			return "", unresolved("secret reference %s: the file cannot be read (%s)", ref, fileReason(err))
		}
		value = strings.TrimRight(string(b), "\r\n")
	case "provider":
		v, ok := r.Provider[name]
		if !ok {
			return "", unresolved("secret reference %s: the provider block's secrets map has no entry %q", ref, name)
		}
		value = v
	}
	if value == "" {
		return "", unresolved("secret reference %s resolves to an empty value", ref)
	}
	return value, nil
}

func fileReason(err error) string {
	switch {
	case os.IsNotExist(err):
		return "it does not exist"
	case os.IsPermission(err):
		return "permission denied"
	}
	return "read error"
}
