package account

import (
	"fmt"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// defaultDoc is what a setting's description says of its default, with a
// leading space: the reference a secret falls back on, or the variable and
// the static default a plain setting does.
func defaultDoc(s adapter.Setting) string {
	switch {
	case s.EnvRef() != "":
		return fmt.Sprintf(" Defaults to `%s` when left out, so the secret is read from the environment variable `%s` of the "+
			"process that runs Terraform, on each request; the id and state hold the reference, never the secret. A reference "+
			"written here always wins.", s.EnvRef(), s.Env)
	case s.Env != "" && s.Default != "":
		return fmt.Sprintf(" Defaults to the environment variable `%s` when left out, read where Terraform plans and recorded in "+
			"the `id` (a later plan without it shows the change), and to `%s` when that is unset or empty.", s.Env, s.Default)
	case s.Env != "":
		return fmt.Sprintf(" Defaults to the environment variable `%s` when left out, read where Terraform plans and recorded in "+
			"the `id` (a later plan without it shows the change); one of the two is needed.", s.Env)
	}
	return fmt.Sprintf(" Defaults to `%s`.", s.Default)
}

// defaultWords names a setting's default for a way out: "https://…",
// "env://NAME" or "the environment variable NAME".
func defaultWords(s adapter.Setting) string {
	switch {
	case s.EnvRef() != "":
		return s.EnvRef()
	case s.Env != "" && s.Default != "":
		return "the environment variable " + s.Env + ", else " + s.Default
	case s.Env != "":
		return "the environment variable " + s.Env
	}
	return s.Default
}

// leftOutSecret is the secret setting a block leaves to its env://
// default and that err is about; ok is false when the configuration
// writes the reference, or the setting has no such default.
func leftOutSecret(b block, err error) (adapter.Setting, bool) {
	s, ok := b.def.SettingNamed(adapter.FieldOf(err))
	if !ok || !leftOut(b, s) {
		return adapter.Setting{}, false
	}
	return s, true
}

// leftOut reports whether the block leaves secret setting s to its
// env:// default.
func leftOut(b block, s adapter.Setting) bool {
	values := b.values
	if b.written != nil {
		values = b.written
	}
	v := values[s.Name]
	return s.EnvRef() != "" && (v.IsNull() || !v.IsUnknown() && v.ValueString() == "")
}

// leftOutWayOut says where a left-out secret's default points and what to
// do when it names no secret here: `hetzner_cloud.token is left out, so it
// defaults to env://HCLOUD_TOKEN. Set HCLOUD_TOKEN …, or set
// hetzner_cloud.token to a secret reference …`.
func leftOutWayOut(b block, s adapter.Setting) string {
	attr := b.name() + "." + s.Name
	return fmt.Sprintf("%s is left out, so it defaults to %s. Set the environment variable %s in the environment that runs "+
		"Terraform (for Terraform Cloud, a workspace environment variable), or set %s to a secret reference "+
		"(env://NAME, file:///absolute/path or provider://NAME).", attr, s.EnvRef(), s.Env, attr)
}
