package install

import "strings"

// bareChars is the protocol's bare word syntax, [A-Za-z0-9_./:=@%+,-]: a
// word made of these means the same to the emulator and to sh.
func bareChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
		strings.ContainsRune("_./:=@%+,-", r)
}

// isBare reports whether s is one non-empty bare word.
func isBare(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !bareChar(r) {
			return false
		}
	}
	return true
}

// word returns s as one protocol word: bare when it can be, else single
// quoted. Validate has refused every value with a quote or a newline, the
// two characters single quotes cannot hold.
func word(s string) string {
	if isBare(s) {
		return s
	}
	return "'" + s + "'"
}
