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

// RefuseID is the refusal of a machine id r does not allow, which an
// adapter gives before any request (rule 10, ids, of the package
// documentation), as MalformedID words it. what names the backend's ids
// ("a Toy Cloud server id"). It is nil for an id r allows.
func (r Rule) RefuseID(id, what string) error {
	if r.Allows(id) {
		return nil
	}
	return MalformedID(id, what, r.Text)
}

// MalformedID is the one wording of a refused machine id, for RefuseID and
// for an adapter's own parsing of its ids (which Rule.Check may call, so it
// cannot call RefuseID): InvalidInput on the attribute id, naming the rule
// and the id only redacted (rule 6, no secret leaves), since a user may
// paste a secret where the id belongs. ruleText ends "it must be ...",
// as Rule.Text does.
func MalformedID(id, what, ruleText string) *Error {
	return Errorf(InvalidInput, "machine id %s is not %s; it must be %s", Quoted(Redacted(id)), what, ruleText).WithField("id")
}
