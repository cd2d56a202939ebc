package robot

import "testing"

func TestThreads(t *testing.T) {
	for _, c := range []struct {
		lines []string
		want  int
	}{
		{[]string{"AMD Ryzen 7 PRO 8700GE", "64 GB DDR5 ECC"}, 16},
		{[]string{"Intel  Core i5-13500", "64 GB DDR4"}, 20},
		// The longer model wins over the one it starts with.
		{[]string{"AMD Ryzen 9 7950X3D"}, 32},
		{[]string{"Intel Xeon E3-1275V6"}, 8},
		// Not listed: the prose's core count, else nothing to guess from.
		{[]string{"Some CPU 6-Core"}, 6},
		{[]string{"Some CPU", "64 GB RAM"}, 0},
	} {
		if got := threads(c.lines); got != c.want {
			t.Errorf("threads(%q) = %d, want %d", c.lines, got, c.want)
		}
	}
}
