package adapter

import "testing"

func TestGPUModelMatches(t *testing.T) {
	for _, c := range []struct {
		filter, model string
		want          bool
	}{
		{"A100", "NVIDIA A100-SXM4-80GB", true},
		{"a100", "A100 80GB PCIe", true},
		{"RTX 4000", "NVIDIA RTX 4000 SFF Ada Generation", true},
		{"rtx-4000", "NVIDIA RTX 4000 SFF Ada Generation", true},
		{"A100", "NVIDIA RTX A1000", false},
		{"4000 RTX", "NVIDIA RTX 4000", false},
		// Next to each other: a word between them is another model.
		{"A100 80GB", "NVIDIA A100-SXM4-80GB", false},
		{"A100 80GB", "NVIDIA A100 80GB PCIe", true},
		{"A100", "", false},
		{"", "A100", false},
		{" - ", "A100", false},
	} {
		if got := GPUModelMatches(c.filter, c.model); got != c.want {
			t.Errorf("GPUModelMatches(%q, %q) = %t, want %t", c.filter, c.model, got, c.want)
		}
	}
}

func TestQueryMatchGPUModel(t *testing.T) {
	gpu := Offer{ID: "g1", Kind: KindMetal, GPUs: 2, GPUModel: "NVIDIA A100 80GB"}
	cpu := Offer{ID: "c1", Kind: KindVPS}
	if !(Query{GPUModel: "a100"}).Match(gpu) || (Query{GPUModel: "a100"}).Match(cpu) || (Query{GPUModel: "H100"}).Match(gpu) {
		t.Error("a GPU model filter keeps only offers with that model")
	}
	if !(Query{}).Match(cpu) || !(Query{}).Match(gpu) {
		t.Error("no GPU model filter keeps every offer")
	}
}
