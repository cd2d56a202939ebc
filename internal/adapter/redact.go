package adapter

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// What a message may repeat of a value the user wrote. Any value may be a
// secret pasted in the wrong place (a token where a reference or an account
// id belongs, a password in an endpoint's user part or path), and the value
// of a sensitive variable reaches the provider without its mark, so messages
// show user input only in these redacted forms:
//
//   - a well-formed secret reference in full: it names where a secret lives,
//     never the secret;
//   - a malformed reference only as its scheme, "env://…";
//   - a URL as scheme://host[:port], with its path only when every segment
//     is a plain short word (v1, api, hcloud), and never its user part,
//     query or fragment;
//   - a plain short word (fsn1, prod-cloud, 4711) as it is;
//   - anything else as "…".
//
// The rules work on text, not on parsed values, so that a value too
// malformed to parse is redacted too.

// hidden stands for whatever a message does not repeat.
const hidden = "…"

// Redacted is one value as a message may repeat it; see the rules above.
func Redacted(s string) string {
	scheme, rest, ok := strings.Cut(s, "://")
	switch {
	case !ok:
		if plainWord(s) {
			return s
		}
		return hidden
	case isRefScheme(scheme):
		return shownRef(s)
	case !plainScheme(scheme):
		return hidden
	}
	return scheme + "://" + redactURLRest(rest)
}

// RedactID is an account id (its JSON form, or the older "KIND:k1=v1&k2=v2") or an import id
// ("ACCOUNT_ID/MACHINE_ID") as a message may repeat it: the kind, the
// setting names and the machine id when they are plain words, well-formed
// secret references in full, endpoints as Redacted shows URLs, and every
// other setting's value as "…". Values are shown unescaped, for reading,
// so the result is not itself an id. A value that does not look like an id
// at all is shown as Redacted shows any value.
func RedactID(s string) string {
	if scheme, _, ok := strings.Cut(s, "://"); ok && plainScheme(scheme) {
		// A URL or a reference where an id belongs.
		return Redacted(s)
	}
	account, machine, isInstance := s, "", false
	// A JSON account id ends with its "}"; its endpoint's "/" is no
	// machine id's.
	if i := strings.LastIndex(s, "/"); i >= 0 && !strings.HasSuffix(strings.TrimSpace(s), "}") {
		account, machine, isInstance = s[:i], s[i+1:], true
	}
	shown := redactLocator(account)
	if !isInstance {
		return shown
	}
	if machine != "" && !plainWord(machine) {
		machine = hidden
	}
	return shown + "/" + machine
}

// Redacted is the locator as a message may repeat it; see RedactID.
func (l Locator) Redacted() string { return RedactID(l.String()) }

// Quoted is a redacted value ready for a sentence: quoted, or a phrase that
// says why nothing of it is shown.
func Quoted(shown string) string {
	if shown == hidden {
		return "(the value is not shown, it may be a secret)"
	}
	return strconv.Quote(shown)
}

// Show is "name = \"shown\"" for a message, or "name (the value is not
// shown, it may be a secret)" when nothing of the value is shown; shown is
// what Redacted or RedactID made of it.
func Show(name, shown string) string {
	if shown == hidden {
		return name + " (the value is not shown, it may be a secret)"
	}
	return name + " = " + strconv.Quote(shown)
}

// ShowPlain is Show for a value whose place holds no secret (an account
// setting whose role is not RoleSecret): Redacted still hides what is not a
// plain word, a URL or a reference, in case a secret was pasted there, but
// the phrase does not call the setting a secret.
func ShowPlain(name, shown string) string {
	if shown == hidden {
		return name + " (the value is not repeated here: messages repeat only plain words, URLs and secret references)"
	}
	return Show(name, shown)
}

func redactLocator(s string) string {
	if strings.HasPrefix(strings.TrimSpace(s), "{") {
		return redactJSONLocator(s)
	}
	kind, rest, ok := strings.Cut(s, ":")
	if !ok {
		return Redacted(s)
	}
	if !plainWord(kind) {
		kind = hidden
	}
	v, err := url.ParseQuery(rest)
	if err != nil {
		return kind + ":" + hidden
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range v {
			if !yield(k) {
				return
			}
		}
	})
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		name := k
		if !plainWord(k) {
			name = hidden
		}
		for _, value := range v[k] {
			shown := hidden
			if name != hidden {
				shown = redactSetting(value)
			}
			parts = append(parts, name+"="+shown)
		}
	}
	return kind + ":" + strings.Join(parts, "&")
}

// redactJSONLocator is an account id in its JSON form as a message may
// repeat it: the same members, kind and name when they are plain words,
// each setting as redactSetting shows it.
func redactJSONLocator(s string) string {
	var members map[string]any
	if err := json.Unmarshal([]byte(s), &members); err != nil {
		return "{" + hidden + "}"
	}
	shown := map[string]string{}
	for k, v := range members {
		str, _ := v.(string)
		switch {
		case !plainWord(k):
			// A member that is no setting's name says nothing of its
			// value: neither is shown.
			shown[hidden] = hidden
			continue
		case k == locatorKind || k == locatorName:
			if !plainWord(str) {
				str = hidden
			}
			shown[k] = str
			continue
		}
		shown[k] = redactSetting(str)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(shown)
	return strings.TrimSuffix(b.String(), "\n")
}

// redactSetting is one setting of an id: references, endpoints and plain
// words (a location such as fsn1) are shown, as the rules allow. An id
// holds secret references, never secrets, and a secret pasted there would
// not be a plain word.
func redactSetting(v string) string {
	scheme, _, ok := strings.Cut(v, "://")
	switch {
	case !ok && plainWord(v):
		return v
	case !ok:
		return hidden
	case scheme == "http" || scheme == "https":
		return Redacted(v)
	case isRefScheme(scheme):
		return shownRef(v)
	case plainScheme(scheme):
		return scheme + "://" + hidden
	}
	return hidden
}

// shownRef is a secret reference as a message may repeat it: whole when it
// is well formed, else only its scheme, since the name part of a malformed
// reference may be the secret itself.
func shownRef(s string) string {
	scheme, _, ok := strings.Cut(s, "://")
	switch {
	case !ok || !plainScheme(scheme):
		return hidden
	case wellFormedRef(s):
		return s
	}
	return scheme + "://" + hidden
}

// tokenShaped is a reference name or host that looks like a credential
// rather than a name: a token pasted as env://<token> would be a valid
// variable name (64 letters and digits), and one pasted as
// https://<token>/v1 a valid host. Names people choose are
// short, or in one case, or words; tokens are long and mix case and digits,
// or are long runs of hex.
func tokenShaped(s string) bool {
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '.' || r == ':' }) {
		var upper, lower, digit, nonHex bool
		for _, r := range part {
			switch {
			case r >= 'A' && r <= 'Z':
				upper = true
				nonHex = nonHex || r > 'F'
			case r >= 'a' && r <= 'z':
				lower = true
				nonHex = nonHex || r > 'f'
			case r >= '0' && r <= '9':
				digit = true
			default:
				nonHex = true
			}
		}
		if len(part) > 40 || (upper && lower && digit && len(part) >= 16) || (!nonHex && len(part) >= 24) {
			return true
		}
	}
	return false
}

// redactURLRest is what follows "scheme://" as a message may repeat it.
func redactURLRest(rest string) string {
	user := ""
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		// Everything up to the last "@" may be a user part, even where a
		// malformed URL puts it, and a password may hold "?" or "/".
		user = hidden + "@"
		rest = rest[i+1:]
	}
	suffix := ""
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		suffix = rest[i:i+1] + hidden
		rest = rest[:i]
	}
	host, path, hasPath := strings.Cut(rest, "/")
	if !plainHost(host) {
		host = hidden
	}
	if hasPath {
		path = "/" + path
		if !plainPath(path) {
			path = "/" + hidden
		}
	}
	return user + host + path + suffix
}

// plainWord is a short lower-case word: what location names, account names,
// setting names and machine ids look like, and what tokens and passwords,
// long and mixed in case, do not.
func plainWord(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// plainSegment is a path segment such as v1, api or hcloud.
func plainSegment(s string) bool { return len(s) <= 16 && plainWord(s) }

func plainPath(p string) bool {
	for _, s := range strings.Split(p, "/") {
		if s != "" && !plainSegment(s) {
			return false
		}
	}
	return true
}

// plainHost is a host name or an IP address, with an optional port, that
// does not look like a credential.
func plainHost(h string) bool {
	if h == "" || len(h) > 253 || tokenShaped(h) {
		return false
	}
	for _, r := range h {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-.:[]", r)) {
			return false
		}
	}
	return true
}

func plainScheme(s string) bool {
	if s == "" || len(s) > 16 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}
