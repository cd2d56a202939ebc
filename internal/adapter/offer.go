package adapter

import (
	"slices"
	"strings"
	"unicode"
)

// Offer is something a Create can be asked for: a server type in a location.
type Offer struct {
	ID           string // stable across calls; what CreateRequest.OfferID names
	Kind         string // "vps" or "metal"
	Location     string
	Description  string
	VCPU         int
	MemoryGiB    float64
	DiskGiB      int
	GPUs         int
	PricePerHour float64 // 0 with Currency "" when the backend has no price
	Currency     string
	Available    bool // a create would succeed now
	// PricePerMonth and SetupFee are for backends that rent by the month
	// (dedicated servers); 0 elsewhere. PricePerHour is then the monthly
	// price spread over 730 hours, for comparison. They are general to
	// rented hardware rather than one backend's: a monthly price with a
	// one-off setup fee is how dedicated servers are rented, and
	// compute_offers shows both (price_per_month, setup_fee) for any
	// backend, null where 0.
	PricePerMonth float64
	SetupFee      float64

	// GPUModel is the backend's name for the GPUs' model, e.g. "NVIDIA
	// A100 80GB"; "" without GPUs.
	GPUModel string
}

// Offer kinds.
const (
	KindVPS   = "vps"
	KindMetal = "metal"
)

// Query filters offers. Zero values do not filter. Location "" means the
// account's own location.
type Query struct {
	Kind            string
	Location        string
	MinVCPU         int
	MinMemoryGiB    float64
	MinGPUs         int
	MaxPricePerHour float64

	// GPUModel keeps offers whose GPU model holds these words; see
	// GPUModelMatches. An offer without GPUs never matches one.
	GPUModel string
}

// Match reports whether o satisfies the query's numeric, kind and GPU model
// filters. Adapters apply the location themselves, since "" means their
// default.
func (q Query) Match(o Offer) bool {
	switch {
	case q.Kind != "" && q.Kind != o.Kind,
		o.VCPU < q.MinVCPU,
		o.MemoryGiB < q.MinMemoryGiB,
		o.GPUs < q.MinGPUs,
		q.GPUModel != "" && !GPUModelMatches(q.GPUModel, o.GPUModel),
		q.MaxPricePerHour > 0 && (o.PricePerHour == 0 || o.PricePerHour > q.MaxPricePerHour):
		return false
	}
	return true
}

// GPUModelMatches reports whether model holds the words of filter next to
// each other and in order, ignoring case: backends name one model in many
// ways ("NVIDIA A100-SXM4-80GB", "A100 80GB PCIe"), and users write the
// short name. Whole words, so "A100" does not match an "RTX A1000"; an empty
// model (no GPU) matches nothing.
func GPUModelMatches(filter, model string) bool {
	want, have := gpuWords(filter), gpuWords(model)
	if len(want) == 0 || len(have) == 0 {
		return false
	}
	for i := 0; i+len(want) <= len(have); i++ {
		if slices.Equal(have[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// gpuWords splits a model name into lower-case words of letters and digits.
func gpuWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
