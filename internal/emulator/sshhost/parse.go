package sshhost

import (
	"fmt"
	"strings"
)

// The emulated sh understands a small grammar, on purpose: a line is
// simple commands joined by "&&" (which binds tighter) and ";" or
// newlines. Words are bare ([A-Za-z0-9_./:=@%+,-]+) or single-quoted with
// no escapes, and adjacent pieces join into one word. Redirections are
// "> F", ">> F", "2>&1" and "< F". "$?" is a word of its own. Anything
// else is a syntax error (exit 2), so a generator that strays from the
// vocabulary fails in tests instead of meaning something unexpected.

// word is one argument; status marks a bare $?.
type word struct {
	text   string
	status bool
}

type redirect struct {
	op     string // ">", ">>", "<", "2>&1"
	target string
}

type simpleCmd struct {
	words  []word
	redirs []redirect
}

// andList is commands joined by &&; a script is a list of them.
type andList []simpleCmd

type token struct {
	op   string // "" for a word
	word word
}

func isBare(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("_./:=@%+,-", c) >= 0
}

type syntaxError struct{ msg string }

func (e *syntaxError) Error() string { return "syntax error: " + e.msg }

func tokenize(line string) ([]token, error) {
	var toks []token
	var cur strings.Builder
	inWord, quoted := false, false
	flush := func() {
		if inWord {
			toks = append(toks, token{word: word{text: cur.String()}})
		}
		cur.Reset()
		inWord, quoted = false, false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, &syntaxError{"unterminated quoted string"}
			}
			cur.WriteString(line[i+1 : i+1+j])
			inWord, quoted = true, true
			i += 1 + j
		case isBare(c):
			cur.WriteByte(c)
			inWord = true
		case c == '>' && inWord && !quoted && cur.String() == "2" && strings.HasPrefix(line[i:], ">&1"):
			cur.Reset()
			inWord = false
			toks = append(toks, token{op: "2>&1"})
			i += 2
		case c == '>':
			flush()
			if strings.HasPrefix(line[i:], ">>") {
				toks = append(toks, token{op: ">>"})
				i++
			} else {
				toks = append(toks, token{op: ">"})
			}
		case c == '<':
			flush()
			toks = append(toks, token{op: "<"})
		case c == '&' && strings.HasPrefix(line[i:], "&&"):
			flush()
			toks = append(toks, token{op: "&&"})
			i++
		case c == ';' || c == '\n':
			flush()
			toks = append(toks, token{op: ";"})
		case c == '$' && !inWord && strings.HasPrefix(line[i:], "$?") &&
			(i+2 == len(line) || strings.IndexByte(" \t;\n>", line[i+2]) >= 0):
			toks = append(toks, token{word: word{text: "$?", status: true}})
			i++
		default:
			return nil, &syntaxError{fmt.Sprintf("unexpected %q", string(c))}
		}
	}
	flush()
	return toks, nil
}

// parse turns a line (or a whole script) into and-lists.
func parse(line string) ([]andList, error) {
	toks, err := tokenize(line)
	if err != nil {
		return nil, err
	}
	var lists []andList
	var list andList
	var cmd simpleCmd
	endCmd := func(op string) error {
		if len(cmd.words) == 0 {
			if len(cmd.redirs) > 0 || op == "&&" || len(list) > 0 {
				return &syntaxError{fmt.Sprintf("unexpected %q", op)}
			}
			return nil // an empty line or a trailing ";"
		}
		list = append(list, cmd)
		cmd = simpleCmd{}
		return nil
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.op {
		case "":
			cmd.words = append(cmd.words, t.word)
		case "2>&1":
			cmd.redirs = append(cmd.redirs, redirect{op: t.op})
		case ">", ">>", "<":
			if i+1 >= len(toks) || toks[i+1].op != "" || toks[i+1].word.status {
				return nil, &syntaxError{fmt.Sprintf("%q needs a file name", t.op)}
			}
			i++
			cmd.redirs = append(cmd.redirs, redirect{op: t.op, target: toks[i].word.text})
		case "&&":
			if err := endCmd("&&"); err != nil {
				return nil, err
			}
		case ";":
			if err := endCmd(";"); err != nil {
				return nil, err
			}
			if len(list) > 0 {
				lists = append(lists, list)
			}
			list = nil
		}
	}
	if err := endCmd("end of line"); err != nil {
		return nil, err
	}
	if len(toks) > 0 && toks[len(toks)-1].op == "&&" {
		return nil, &syntaxError{"unexpected end of line after &&"}
	}
	if len(list) > 0 {
		lists = append(lists, list)
	}
	return lists, nil
}
