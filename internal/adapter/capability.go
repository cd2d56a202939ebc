package adapter

import (
	"slices"
	"strings"
)

// Capability names an optional ability of an adapter.
type Capability string

// The optional abilities. Each matches an interface in this package.
const (
	CapPower     Capability = "power"
	CapUpdate    Capability = "update"
	CapList      Capability = "list"
	CapInventory Capability = "inventory"
	CapCheck     Capability = "check"
	CapValidate  Capability = "validate"
	CapIdentify  Capability = "identify"
	CapBootstrap Capability = "bootstrap"
)

// Capabilities is the set an adapter declares.
type Capabilities []Capability

// Has reports whether c is declared.
func (cs Capabilities) Has(c Capability) bool { return slices.Contains(cs, c) }

func (cs Capabilities) String() string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = string(c)
	}
	return strings.Join(parts, ", ")
}
