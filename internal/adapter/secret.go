package adapter

import (
	"context"
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
// belongs must not see it printed back into logs, and repeats a URL-shaped
// value only as Redacted shows it.
func ParseRef(s string) (scheme, name string, err error) {
	scheme, name, ok := strings.Cut(s, "://")
	switch {
	case !ok:
		return "", "", Errorf(InvalidConfig, "the value is not a secret reference (the value is not shown, it may be a secret); use %s", refSyntax)
	case scheme == "env" && validEnvName(name):
	case scheme == "provider" && name != "" && !strings.ContainsAny(name, "/ "):
	case scheme == "file" && strings.HasPrefix(name, "/") && len(name) > 1:
	case scheme == "env", scheme == "provider", scheme == "file":
		return "", "", Errorf(InvalidConfig, "secret reference %s is malformed; use %s", Redacted(s), refSyntax)
	default:
		shown := Redacted(s)
		shownScheme, _, _ := strings.Cut(shown, "://")
		return "", "", Errorf(InvalidConfig, "secret reference %s: scheme %q is not known; use %s", shown, shownScheme, refSyntax)
	}
	return scheme, name, nil
}

// Redacted is s as a message may repeat it. A URL-shaped value ("x://...")
// keeps what stands before "://" only when it is a plain scheme, and loses
// everything up to its last "@" (a user part may hold a password) and
// everything from its first "?" or "#" (a query or fragment may hold a
// token); the rest, and any other value, is unchanged. It works on text, not
// on a parsed URL, so that a URL too malformed to parse is redacted too.
func Redacted(s string) string {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return s
	}
	if strings.ContainsFunc(scheme, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')
	}) {
		// Not a scheme: whatever stands before "://" is not shown.
		scheme = "…"
	}
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		rest = "…@" + rest[i+1:]
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i] + "…"
	}
	return scheme + "://" + rest
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

// Resolve returns the secret's value. Errors are InvalidConfig and name the
// reference, never the value.
func (r SecretResolver) Resolve(_ context.Context, ref string) (string, error) {
	scheme, name, err := ParseRef(ref)
	if err != nil {
		return "", err
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
			return "", Errorf(InvalidConfig, "secret reference %s: environment variable %s is not set in the provider's environment", ref, name)
		}
		value = v
	case "file":
		read := r.ReadFile
		if read == nil {
			read = os.ReadFile
		}
		b, err := read(name)
		if err != nil {
			return "", Errorf(InvalidConfig, "secret reference %s: the file cannot be read (%s)", ref, fileReason(err))
		}
		value = strings.TrimRight(string(b), "\r\n")
	case "provider":
		v, ok := r.Provider[name]
		if !ok {
			return "", Errorf(InvalidConfig, "secret reference %s: the provider block's secrets map has no entry %q", ref, name)
		}
		value = v
	}
	if value == "" {
		return "", Errorf(InvalidConfig, "secret reference %s resolves to an empty value", ref)
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
