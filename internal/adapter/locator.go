package adapter

import (
	"bytes"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
)

// Locator is an account's self-contained, secret-free address: the adapter
// kind, the account's name and its settings, secrets only as references. It
// is the account's Terraform id, so that reading, deleting or importing an
// instance needs no other resource's state, and it is derived from
// configuration alone so it is known at plan time.
//
// Its text form is a JSON object of strings: "kind", "name" and one member
// per setting, e.g.
//
//	{"endpoint":"https://api.hetzner.cloud/v1","kind":"hcloud","location":"fsn1","name":"prod-cloud","token":"env://HCLOUD_TOKEN"}
//
// JSON because Terraform shows a string that holds a JSON object as
// jsonencode({...}) in a plan, one line per member, with the changed member
// marked and the name always shown: a reviewer reads which account an
// instance is on and which setting of it changed, where a query string
// would be one rewritten line. Members are sorted by key and nothing is
// escaped that need not be, so the same account always has the same id.
//
// Ids written before accounts carried their name, "KIND:k1=v1&k2=v2" with
// values query-escaped, are still read (ParseLocator); they have no name.
type Locator struct {
	Kind string
	// Name is the account's name, for messages; "" in an id written before
	// accounts carried it. It is no part of the account's identity: two
	// locators that differ only in it reach the same backend (see Key).
	Name     string
	Settings map[string]string
}

// The members of a locator's text form beside its settings; no adapter may
// have a setting of either name (NewRegistry refuses it).
const (
	locatorKind = "kind"
	locatorName = "name"
)

func (l Locator) String() string {
	members := map[string]string{locatorKind: l.Kind}
	for k, s := range l.Settings {
		if s != "" {
			members[k] = s
		}
	}
	if l.Name != "" {
		members[locatorName] = l.Name
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	// An endpoint's & or a reference's < stay as written: the id is read
	// by people in plans, and escaping them changes nothing for a parser.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(members); err != nil {
		// A map of strings always encodes.
		panic("encode locator: " + err.Error())
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Key is the locator without its name: what tells accounts apart for
// caching, since renaming an account reaches the same backend.
func (l Locator) Key() string {
	l.Name = ""
	return l.String()
}

// ParseLocator reads a locator's text form, JSON or the older query form.
// Its errors never repeat the value, which may be a secret pasted in the
// wrong place: callers name it with RedactID.
func ParseLocator(s string) (Locator, error) {
	if !utf8.ValidString(s) {
		// Terraform's strings are UTF-8: bytes that are not come from a
		// hand-edited state, and would be read back as other characters.
		return Locator{}, Errorf(InvalidInput, "the account id is not valid UTF-8; use the account's id attribute as it is")
	}
	if strings.HasPrefix(strings.TrimSpace(s), "{") {
		return parseJSONLocator(s)
	}
	return parseQueryLocator(s)
}

func parseJSONLocator(s string) (Locator, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	var members map[string]any
	if err := dec.Decode(&members); err != nil || dec.More() {
		// Not err itself: it may quote the part it could not read.
		return Locator{}, Errorf(InvalidInput, "the account id is not a JSON object of strings; use the account's id attribute as it is")
	}
	l := Locator{Settings: map[string]string{}}
	for k, v := range members {
		str, ok := v.(string)
		if !ok {
			return Locator{}, Errorf(InvalidInput, "the account id's member %s is not a string; use the account's id attribute as it is", Quoted(Redacted(k)))
		}
		switch k {
		case locatorKind:
			l.Kind = str
		case locatorName:
			l.Name = str
		default:
			l.Settings[k] = str
		}
	}
	if l.Kind == "" {
		return Locator{}, Errorf(InvalidInput, "the account id has no kind; use the account's id attribute as it is")
	}
	return l, nil
}

func parseQueryLocator(s string) (Locator, error) {
	kind, rest, ok := strings.Cut(s, ":")
	if !ok || kind == "" || strings.Contains(s, "/") {
		return Locator{}, Errorf(InvalidInput, "it is not an account id; account ids are what a compute_provider_account's id attribute shows, a JSON object such as {\"kind\":\"hcloud\",\"name\":\"prod\",...}")
	}
	v, err := url.ParseQuery(rest)
	if err != nil {
		// Not err itself: it quotes the part of the value it could not read.
		return Locator{}, Errorf(InvalidInput, "the account id's settings are malformed (a value is not query-escaped); use the account's id attribute as it is")
	}
	l := Locator{Kind: kind, Settings: map[string]string{}}
	for k, vs := range v {
		if len(vs) != 1 {
			return Locator{}, Errorf(InvalidInput, "the account id repeats setting %s; name each setting once", Quoted(Redacted(k)))
		}
		if !utf8.ValidString(k) || !utf8.ValidString(vs[0]) {
			// %80 unescapes to a byte that is not UTF-8, which the JSON
			// form would write back as another character.
			return Locator{}, Errorf(InvalidInput, "the account id's settings are not valid UTF-8 once unescaped; use the account's id attribute as it is")
		}
		l.Settings[k] = vs[0]
	}
	return l, nil
}

// Scope is the part of the locator that names the backend and project, with
// only the given keys: it is what idempotency keys are derived from, so that
// changing a secret reference, a default location or the account's name
// does not change them.
func (l Locator) Scope(keys []string) string {
	sorted := slices.Sorted(slices.Values(keys))
	parts := []string{l.Kind}
	for _, k := range sorted {
		parts = append(parts, k+"="+l.Settings[k])
	}
	return strings.Join(parts, "&")
}

// InstanceID joins an account locator and a machine's own id:
// "ACCOUNT_ID/MACHINE_ID", the form import ids take.
func InstanceID(account Locator, machineID string) string {
	return account.String() + "/" + machineID
}

// ParseInstanceID splits an import id, "ACCOUNT_ID/MACHINE_ID", into its
// account and machine id. Machine ids never hold a "/", so the last one
// ends the account id, whose endpoint may hold several. Like ParseLocator,
// its errors never repeat the value.
func ParseInstanceID(s string) (Locator, string, error) {
	const form = "import ids look like ACCOUNT_ID/MACHINE_ID, where ACCOUNT_ID is the compute_provider_account's id"
	i := strings.LastIndex(s, "/")
	switch {
	case i <= 0:
		return Locator{}, "", Errorf(InvalidInput, "it is not an import id; %s", form)
	case i == len(s)-1:
		if _, err := ParseLocator(s[:i]); err == nil {
			return Locator{}, "", Errorf(InvalidInput, "MACHINE_ID is empty: the import id ends with the \"/\" after ACCOUNT_ID; %s", form)
		}
		return Locator{}, "", Errorf(InvalidInput, "it is not an import id; %s", form)
	}
	l, err := ParseLocator(s[:i])
	if err != nil {
		// A JSON account id ends with its "}": more than one segment
		// after it is a path too long, not a broken account id.
		if j := strings.LastIndex(s, "}"); j > 0 && j < i && strings.Count(s[j+1:], "/") > 1 {
			if _, errJ := ParseLocator(s[:j+1]); errJ == nil {
				return Locator{}, "", Errorf(InvalidInput, "the import id has %d path segments after ACCOUNT_ID, where only MACHINE_ID belongs; %s",
					strings.Count(s[j+1:], "/"), form)
			}
		}
		return Locator{}, "", err
	}
	return l, s[i+1:], nil
}
