package adapter

import (
	"net/url"
	"slices"
	"strings"
)

// Locator is an account's self-contained, secret-free address: the adapter
// kind and its settings, secrets only as references. It is the account's
// Terraform id, so that reading, deleting or importing an instance needs no
// other resource's state, and it is derived from configuration alone so it is
// known at plan time.
//
// Its text form is "KIND:k1=v1&k2=v2" with keys sorted and values
// query-escaped; it never contains a "/", which lets instance ids append one.
type Locator struct {
	Kind     string
	Settings map[string]string
}

func (l Locator) String() string {
	v := url.Values{}
	for k, s := range l.Settings {
		if s != "" {
			v.Set(k, s)
		}
	}
	return l.Kind + ":" + v.Encode()
}

// ParseLocator reads a locator's text form. Its errors never repeat the
// value, which may be a secret pasted in the wrong place: callers name it
// with RedactID.
func ParseLocator(s string) (Locator, error) {
	kind, rest, ok := strings.Cut(s, ":")
	if !ok || kind == "" || strings.Contains(s, "/") {
		return Locator{}, Errorf(InvalidInput, "it is not an account id; account ids look like KIND:key=value&... (see the account's id attribute)")
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
		l.Settings[k] = vs[0]
	}
	return l, nil
}

// Scope is the part of the locator that names the backend and project, with
// only the given keys: it is what idempotency keys are derived from, so that
// changing a secret reference or a default location does not change them.
func (l Locator) Scope(keys []string) string {
	sorted := slices.Sorted(slices.Values(keys))
	parts := []string{l.Kind}
	for _, k := range sorted {
		parts = append(parts, k+"="+l.Settings[k])
	}
	return strings.Join(parts, "&")
}

// InstanceID joins an account locator and a machine's own id: "LOCATOR/ID".
func InstanceID(account Locator, machineID string) string {
	return account.String() + "/" + machineID
}

// ParseInstanceID splits an instance id into its account and machine id.
// Like ParseLocator, its errors never repeat the value.
func ParseInstanceID(s string) (Locator, string, error) {
	i := strings.LastIndex(s, "/")
	if i <= 0 || i == len(s)-1 {
		return Locator{}, "", Errorf(InvalidInput, "it is not an instance id; instance ids look like ACCOUNT_ID/MACHINE_ID, where ACCOUNT_ID is the compute_provider_account's id")
	}
	l, err := ParseLocator(s[:i])
	if err != nil {
		return Locator{}, "", err
	}
	return l, s[i+1:], nil
}
