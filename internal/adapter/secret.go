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

// ParseRef checks that s is a secret reference. The error never repeats s
// beyond its scheme, since a user who pasted a token where a reference
// belongs must not see it printed back into logs.
func ParseRef(s string) (scheme, name string, err error) {
	scheme, name, ok := strings.Cut(s, "://")
	switch {
	case !ok:
		return "", "", Errorf(InvalidConfig, "the value is not a secret reference (the value is not shown, it may be a secret); use %s", refSyntax)
	case scheme == "env" && validEnvName(name):
	case scheme == "provider" && name != "" && !strings.ContainsAny(name, "/ "):
	case scheme == "file" && strings.HasPrefix(name, "/") && len(name) > 1:
	case scheme == "env", scheme == "provider", scheme == "file":
		return "", "", Errorf(InvalidConfig, "secret reference %s is malformed; use %s", s, refSyntax)
	default:
		return "", "", Errorf(InvalidConfig, "secret reference %s: scheme %q is not known; use %s", s, scheme, refSyntax)
	}
	return scheme, name, nil
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
