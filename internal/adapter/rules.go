package adapter

// Rule is one of a backend's syntax rules for a value the user writes (a
// machine name, a label key, a machine id), declared in the adapter's
// Definition so that the Terraform layer checks it at plan time and names
// the rule, instead of the backend refusing the value half-way through an
// apply.
type Rule struct {
	// Check reports whether v is allowed; nil allows every value.
	Check func(v string) bool
	// Text says what is allowed, for messages, as the end of a sentence
	// that starts "... must be": "a positive number, the server's id".
	Text string
}

// Allows reports whether v is allowed by the rule.
func (r Rule) Allows(v string) bool { return r.Check == nil || r.Check(v) }

// Rules are the syntax rules of an adapter's backend.
type Rules struct {
	// MachineID is a machine's own id, the MACHINE_ID of an instance id.
	MachineID Rule
	// MachineName is a machine's name.
	MachineName Rule
	// LabelKey and LabelValue are a user label's key and value; LabelKey
	// also refuses prefixes the backend or the adapter reserve.
	LabelKey   Rule
	LabelValue Rule
}
