package robot

import (
	"slices"
	"strings"
)

// Robot describes a product's processor by its model name only ("AMD Ryzen
// 7 PRO 8700GE"), in the standard catalog's description and the server
// market's cpu field, and never says how many cores it has. Offers count
// vCPUs as a cloud does, in hardware threads (what the installed system
// sees as CPUs), so the processors Hetzner rents are listed here; a model
// not listed falls back to a core count written in the prose, else 0,
// which a min_vcpu filter then leaves out rather than guess.
var cpuThreads = map[string]int{
	"amd ryzen 7 pro 8700ge": 16,
	"amd ryzen 7 7700":       16,
	"amd ryzen 7 3700x":      16,
	"amd ryzen 5 3600":       12,
	"amd ryzen 9 3900":       24,
	"amd ryzen 9 5950x":      32,
	"amd ryzen 9 7900":       24,
	"amd ryzen 9 7950x":      32,
	"amd ryzen 9 7950x3d":    32,
	"amd epyc 7502p":         64,
	"amd epyc 9454p":         96,
	"intel core i5-13500":    20,
	"intel core i7-6700":     8,
	"intel core i7-7700":     8,
	"intel core i7-8700":     12,
	"intel core i9-13900":    32,
	"intel xeon e3-1275v5":   8,
	"intel xeon e3-1275v6":   8,
	"intel xeon e5-1650v3":   12,
	"intel xeon e-2176g":     12,
	"intel xeon e-2276g":     12,
	"intel xeon w-2145":      16,
	"intel xeon w-2295":      36,
	"intel xeon gold 5412u":  48,
}

// cpuModels are cpuThreads' keys, longest first, so "… 7950x3d" is found
// before "… 7950x" and "… 7700" does not swallow "… 7700x".
var cpuModels = func() []string {
	keys := make([]string, 0, len(cpuThreads))
	for k := range cpuThreads {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return len(b) - len(a) })
	return keys
}()

// threads is the vCPU count of the first line naming a known processor,
// else the core count the prose gives, else 0.
func threads(lines []string) int {
	for _, l := range lines {
		norm := strings.Join(strings.Fields(strings.ToLower(l)), " ")
		for _, model := range cpuModels {
			if strings.Contains(norm, model) {
				return cpuThreads[model]
			}
		}
	}
	return cores(lines)
}
