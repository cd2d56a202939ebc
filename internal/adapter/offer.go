package adapter

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
}

// Match reports whether o satisfies the query's numeric and kind filters.
// Adapters apply the location themselves, since "" means their default.
func (q Query) Match(o Offer) bool {
	switch {
	case q.Kind != "" && q.Kind != o.Kind,
		o.VCPU < q.MinVCPU,
		o.MemoryGiB < q.MinMemoryGiB,
		o.GPUs < q.MinGPUs,
		q.MaxPricePerHour > 0 && (o.PricePerHour == 0 || o.PricePerHour > q.MaxPricePerHour):
		return false
	}
	return true
}
