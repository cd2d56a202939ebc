package robot

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// product is a standard server product of the order catalog.
type product struct {
	id, name    string
	description []string
	traffic     string
	dist        []string
	locations   []string
	// monthly and setup are net prices in euro by location.
	monthly, setup map[string]float64
	// disks are the drive kinds its machines have (metal.Spec.Disks).
	disks []string
	// resetTypes are what POST /reset takes for its servers.
	resetTypes []string
	wol        bool
}

// vat is the German VAT Robot's gross prices include.
const vat = 1.19

// hoursPerMonth turns a monthly price into Robot's hourly one.
const hoursPerMonth = 730

var standardDists = []string{"Rescue system", "Debian 12 base", "Ubuntu 24.04 LTS base", "Rocky Linux 9 base"}

// datacenters is where a server ordered in a location is delivered.
var datacenters = map[string]string{"FSN1": "FSN1-DC14", "NBG1": "NBG1-DC3", "HEL1": "HEL1-DC2"}

func everywhere(price float64, locations ...string) map[string]float64 {
	m := map[string]float64{}
	for _, l := range locations {
		m[l] = price
	}
	return m
}

var catalog = []*product{
	{
		id: "AX42", name: "Dedicated Server AX42",
		description: []string{"AMD Ryzen 7 PRO 8700GE", "64 GB DDR5 ECC", "2 x 512 GB NVMe SSD"},
		traffic:     "unlimited", dist: standardDists, locations: []string{"FSN1", "NBG1", "HEL1"},
		monthly: everywhere(46.41, "FSN1", "NBG1", "HEL1"), setup: everywhere(0, "FSN1", "NBG1", "HEL1"),
		disks: []string{"nvme", "nvme"}, resetTypes: []string{"sw", "hw", "man"}, wol: true,
	},
	{
		id: "AX52", name: "Dedicated Server AX52",
		description: []string{"AMD Ryzen 7 7700", "64 GB DDR5 ECC", "2 x 1 TB NVMe SSD"},
		traffic:     "unlimited", dist: standardDists, locations: []string{"FSN1", "NBG1"},
		monthly: everywhere(64.00, "FSN1", "NBG1"), setup: everywhere(0, "FSN1", "NBG1"),
		disks: []string{"nvme", "nvme"}, resetTypes: []string{"sw", "hw", "man"}, wol: true,
	},
	{
		id: "EX44", name: "Dedicated Server EX44",
		description: []string{"Intel Core i5-13500", "64 GB DDR4", "2 x 512 GB NVMe SSD"},
		traffic:     "unlimited", dist: standardDists, locations: []string{"FSN1", "HEL1"},
		monthly: map[string]float64{"FSN1": 44.00, "HEL1": 42.50}, setup: everywhere(39.00, "FSN1", "HEL1"),
		disks: []string{"nvme", "nvme"}, resetTypes: []string{"sw", "hw", "power", "power_long", "man"}, wol: true,
	},
	{
		id: "SX65", name: "Dedicated Server SX65",
		description: []string{"AMD Ryzen 7 3700X", "64 GB DDR4 ECC", "2 x 1 TB NVMe SSD", "4 x 22 TB SATA HDD"},
		traffic:     "unlimited", dist: standardDists, locations: []string{"FSN1"},
		monthly: everywhere(99.00, "FSN1"), setup: everywhere(79.00, "FSN1"),
		disks: []string{"nvme", "nvme", "sata", "sata", "sata", "sata"}, resetTypes: []string{"sw", "hw", "power", "power_long", "man"},
	},
}

func findProduct(id string) *product {
	for _, p := range catalog {
		if p.id == id {
			return p
		}
	}
	return nil
}

// money writes a price as Robot does: a string with four decimals.
func money(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }

func priceJSON(net float64) map[string]any {
	return map[string]any{"net": money(net), "gross": money(net * vat)}
}

func (p *product) json() map[string]any {
	prices := make([]any, 0, len(p.locations))
	for _, l := range p.locations {
		monthly := priceJSON(p.monthly[l])
		monthly["hourly_net"], monthly["hourly_gross"] = money(p.monthly[l]/hoursPerMonth), money(p.monthly[l]*vat/hoursPerMonth)
		prices = append(prices, map[string]any{"location": l, "price": monthly, "price_setup": priceJSON(p.setup[l])})
	}
	return map[string]any{
		"id": p.id, "name": p.name, "description": p.description, "traffic": p.traffic,
		"dist": p.dist, "arch": []int{64}, "lang": []string{"en"}, "location": p.locations,
		"prices": prices, "orderable_addons": []any{},
	}
}

func (e *Emulator) listProducts(w http.ResponseWriter, _ *http.Request) {
	out := make([]any, 0, len(catalog))
	for _, p := range catalog {
		out = append(out, map[string]any{"product": p.json()})
	}
	writeJSON(w, http.StatusOK, out)
}

func (e *Emulator) getProduct(w http.ResponseWriter, r *http.Request) {
	p := findProduct(r.PathValue("id"))
	if p == nil {
		writeError(w, failure(http.StatusNotFound, codeProductNotFound, "product %q not found", r.PathValue("id")))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"product": p.json()})
}

// marketProduct is a server of the server market (auction): one machine,
// gone from the market once ordered.
type marketProduct struct {
	id              int
	name            string
	description     []string
	cpu             string
	cpuBenchmark    int
	memoryGB, hddGB int
	hddText         string
	disks           []string
	datacenter      string
	monthly, setup  float64
	fixedPrice      bool
	nextReduce      int // seconds until the price drops
	nextReduceDate  string
}

func newMarket() map[int]*marketProduct {
	m := map[int]*marketProduct{}
	for _, p := range []*marketProduct{
		{id: 2_345_001, name: "SB i7-6700", cpu: "Intel Core i7-6700", cpuBenchmark: 8401, memoryGB: 64, hddGB: 512,
			hddText: "2x SSD M.2 NVMe 512 GB", disks: []string{"nvme", "nvme"}, datacenter: "FSN1-DC16",
			monthly: 39.00, nextReduce: 86400, nextReduceDate: "2031-01-01 12:00:00"},
		{id: 2_345_002, name: "SB Ryzen 5 3600", cpu: "AMD Ryzen 5 3600", cpuBenchmark: 17800, memoryGB: 64, hddGB: 512,
			hddText: "2x SSD M.2 NVMe 512 GB", disks: []string{"nvme", "nvme"}, datacenter: "HEL1-DC7",
			monthly: 41.00, fixedPrice: true},
		{id: 2_345_003, name: "SB Xeon E3-1275", cpu: "Intel Xeon E3-1275V6", cpuBenchmark: 8900, memoryGB: 64, hddGB: 4000,
			hddText: "2x HDD SATA 4,0 TB Enterprise", disks: []string{"sata", "sata"}, datacenter: "NBG1-DC3",
			monthly: 35.50, nextReduce: 43200, nextReduceDate: "2031-01-01 00:00:00"},
	} {
		p.description = []string{p.cpu, fmt.Sprintf("%d GB RAM", p.memoryGB), p.hddText}
		m[p.id] = p
	}
	return m
}

func (p *marketProduct) location() string { l, _, _ := strings.Cut(p.datacenter, "-"); return l }

func (p *marketProduct) json() map[string]any {
	return map[string]any{
		"id": p.id, "name": p.name, "description": p.description, "traffic": "unlimited",
		"dist": standardDists, "arch": []int{64}, "lang": []string{"en"},
		"cpu": p.cpu, "cpu_benchmark": p.cpuBenchmark, "memory_size": p.memoryGB,
		"hdd_size": p.hddGB, "hdd_text": p.hddText, "hdd_count": len(p.disks),
		"datacenter": p.datacenter, "network_speed": "1 Gbit/s",
		"price": money(p.monthly), "price_vat": money(p.monthly * vat),
		"price_hourly": money(p.monthly / hoursPerMonth), "price_hourly_vat": money(p.monthly * vat / hoursPerMonth),
		"price_setup": money(p.setup), "price_setup_vat": money(p.setup * vat),
		"fixed_price": p.fixedPrice, "next_reduce": p.nextReduce, "next_reduce_date": p.nextReduceDate,
		"orderable_addons": []any{},
	}
}

func (e *Emulator) listMarket(w http.ResponseWriter, _ *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	ids := make([]int, 0, len(e.market))
	for id := range e.market {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]any, 0, len(ids))
	for _, id := range ids {
		out = append(out, map[string]any{"product": e.market[id].json()})
	}
	writeJSON(w, http.StatusOK, out)
}

func (e *Emulator) getMarketProduct(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.Atoi(r.PathValue("id"))
	e.mu.Lock()
	defer e.mu.Unlock()
	p := e.market[id]
	if p == nil {
		writeError(w, failure(http.StatusNotFound, codeProductNotFound, "server market product %q not found", r.PathValue("id")))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"product": p.json()})
}
