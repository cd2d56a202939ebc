package install

import (
	"fmt"
	"regexp"
	"strings"
)

// shellWords splits one line as sh and bash read a simple command, and
// refuses any line in which something is not a literal word: an operator
// (; & | < > ( ) and newline, which would start another command or a
// redirection), an expansion ($, `, a glob's * ? [, a leading ~, bash's
// { }), a comment, an escape, or a first word that is an assignment. It is
// the oracle of what the generated lines mean, deliberately stricter than
// the shells: a line it accepts is the same words to every shell.
//
// The emulator's SSH host has a tokenizer of its own
// (internal/emulator/sshhost/parse.go) that reads much the same way. The
// copy is deliberate: the oracle must not share code, or a mistake, with
// the emulator the generated lines run against, and a test package may not
// import the emulator's internals.
func shellWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	end := func() {
		if inWord {
			words = append(words, cur.String())
		}
		cur.Reset()
		inWord, quoted = false, false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			end()
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated single quote at %d", i)
			}
			cur.WriteString(line[i+1 : i+1+j])
			inWord, quoted = true, true
			i += j + 1
		case strings.IndexByte(";&|<>()\n\r", c) >= 0:
			return nil, fmt.Errorf("operator %q at %d", c, i)
		case strings.IndexByte("$`\"\\*?[]{}", c) >= 0:
			return nil, fmt.Errorf("expansion, quote or escape %q at %d", c, i)
		case (c == '#' || c == '~') && !inWord:
			return nil, fmt.Errorf("%q at the start of a word at %d", c, i)
		case c < 0x20 || c == 0x7f:
			return nil, fmt.Errorf("control character %q at %d", c, i)
		default:
			if len(words) == 0 && !quoted && c == '=' && assignment.MatchString(cur.String()) {
				return nil, fmt.Errorf("the first word is an assignment")
			}
			cur.WriteByte(c)
			inWord = true
		}
	}
	end()
	return words, nil
}

var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
