package robot

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Robot stores a server name and nothing else about a server, so the mark
// every managed machine carries (the managed mark, the key, the fingerprint
// and the claim) lives in that name:
//
//	<name>~cm~<claim: 32 hex>~<fingerprint: first 8 hex>~<e|n|E|N>
//
// (the claim empty only on an imported server marked without one).
// The key is not written: it is adapter.IdempotencyKey(scope, name), so the
// name is where it lives. The fingerprint is cut to 8 hex digits to leave
// room for the name; a collision of two different requests under one name
// costs a mistaken adoption only when both also share account and name.
// The last letter says what the server was called before it was claimed,
// which is what release restores: "e" for "" (unnamed), "n" for <name> (a
// user who names a server in Robot's panel says "this one"). Upper case
// ("E", "N") says the claim is not confirmed yet (adapter.Adoptable): a
// create wrote it and no refresh of its state has confirmed it. It costs
// no room, and a name written before, always lower case, reads as
// confirmed. Robot keeps no time for a claim; the claim carries its own
// (adapter.ClaimTime).

const (
	markSep = "~cm~"
	// maxServerName is the longest server name the adapter writes: the
	// Robot emulator accepts up to 100 printable ASCII characters; the real
	// webservice documents no limit, and 100 is within what its panel takes.
	maxServerName = 100
	// markLen is what the mark adds to a name.
	markLen = len(markSep) + 32 + 1 + fpLen + 1 + 1
	// maxUserName is the longest name a user may give.
	maxUserName = maxServerName - markLen
	fpLen       = 8
)

// markTail reads the mark after markSep. The claim may be empty: an
// imported server marked without one is held by whichever state names it
// (adapter.Held).
var markTail = regexp.MustCompile(`^([0-9a-f]{32}|)~([0-9a-f]{8})~([enEN])$`)

// claimed is a server name parsed.
type claimed struct {
	Name        string // the user's name, without the mark
	Claim       string
	Fingerprint string // 8 hex
	WasNamed    bool   // "n": release restores Name, else ""
	Unconfirmed bool   // upper case: the claim is not confirmed yet
	Managed     bool   // the name carries a well-formed mark
}

// parseName reads a server name. A name without a well-formed mark is an
// unmanaged server whose whole name is Name.
func parseName(serverName string) claimed {
	i := strings.LastIndex(serverName, markSep)
	if i < 0 {
		return claimed{Name: serverName}
	}
	m := markTail.FindStringSubmatch(serverName[i+len(markSep):])
	if m == nil {
		return claimed{Name: serverName}
	}
	return claimed{Name: serverName[:i], Claim: m[1], Fingerprint: m[2], WasNamed: strings.EqualFold(m[3], "n"),
		Unconfirmed: m[3] == strings.ToUpper(m[3]), Managed: true}
}

// String writes the server name that carries c.
func (c claimed) String() string {
	was := "e"
	if c.WasNamed {
		was = "n"
	}
	if c.Unconfirmed {
		was = strings.ToUpper(was)
	}
	return c.Name + markSep + c.Claim + "~" + shortFP(c.Fingerprint) + "~" + was
}

// released is the name release restores.
func (c claimed) released() string {
	if c.WasNamed {
		return c.Name
	}
	return ""
}

// shortFP is a request fingerprint as the name carries it.
func shortFP(fp string) string {
	if len(fp) > fpLen {
		return fp[:fpLen]
	}
	return fp
}

// idRule is what a server number must be, which parseID's refusal names
// as the rule does.
const idRule = "a positive number: the server number Robot shows (Server → the number before the name)"

// rules are what a plan checks before anything is claimed.
var rules = adapter.Rules{
	MachineID: adapter.Rule{
		Check: func(id string) bool { _, err := parseID(id); return err == nil },
		Text:  idRule,
	},
	MachineName: adapter.Rule{
		Check: validName,
		Text: "1 to " + strconv.Itoa(maxUserName) + " printable ASCII characters without `" + markSep + "`: Robot server names hold " +
			strconv.Itoa(maxServerName) + " characters, and the adapter adds its claim mark (" + strconv.Itoa(markLen) + " characters) after the name",
	},
	LabelKey:   adapter.Rule{Check: func(string) bool { return false }, Text: "absent: Robot has no labels, so labels must be empty"},
	LabelValue: adapter.Rule{Check: func(string) bool { return false }, Text: "absent: Robot has no labels, so labels must be empty"},
}

func validName(name string) bool {
	if name == "" || len(name) > maxUserName || strings.Contains(name, markSep) {
		return false
	}
	for i := 0; i < len(name); i++ {
		if name[i] < 0x20 || name[i] > 0x7e {
			return false
		}
	}
	return true
}

// parseID reads a server number.
func parseID(id string) (int, error) {
	n, err := strconv.Atoi(id)
	if err != nil || n <= 0 || strconv.Itoa(n) != id {
		return 0, adapter.MalformedID(id, "a Robot server number", idRule)
	}
	return n, nil
}
