package install

import (
	"sort"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Layout is the disk layout chosen for one machine: its drives (DRIVE1…)
// and whether they form a software RAID 1.
type Layout struct {
	Drives []string // "/dev/nvme0n1", "/dev/sda"
	RAID   bool
}

// Root is the installed root file system's device, as installimage lays
// out PART /boot then PART /: md1 over a RAID (md0 is /boot), else the
// second partition of the first drive (NVMe names partitions with a "p").
func (l Layout) Root() string {
	switch {
	case l.RAID:
		return "/dev/md1"
	case strings.HasPrefix(l.Drives[0], "/dev/nvme"):
		return l.Drives[0] + "p2"
	}
	return l.Drives[0] + "2"
}

// ChooseLayout reads `lsblk -dn -o NAME,TRAN` and picks the drives for
// want. DisksAuto is RAID 1 over the NVMe drives when there are two or
// more, else over the SATA drives, else the first drive; DisksRAID1 refuses
// a machine without two drives of one kind; DisksSingle takes the first
// drive, NVMe before SATA. Drives of other transports (usb) are never used.
func ChooseLayout(want adapter.DiskLayout, lsblk string) (Layout, error) {
	kinds := map[string][]string{}
	for _, line := range strings.Split(lsblk, "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && (f[1] == "nvme" || f[1] == "sata") && isDeviceName(f[0]) {
			kinds[f[1]] = append(kinds[f[1]], "/dev/"+f[0])
		}
	}
	nvme, sata := kinds["nvme"], kinds["sata"]
	sort.Strings(nvme)
	sort.Strings(sata)
	first := append(append([]string{}, nvme...), sata...)
	if len(first) == 0 {
		return Layout{}, adapter.Errorf(adapter.InvalidState, "the machine reports no NVMe or SATA drive (lsblk), so there is nothing to install onto; check the machine in the Robot panel")
	}
	raid := func() (Layout, bool) {
		switch {
		case len(nvme) >= 2:
			return Layout{Drives: nvme, RAID: true}, true
		case len(sata) >= 2:
			return Layout{Drives: sata, RAID: true}, true
		}
		return Layout{}, false
	}
	switch want {
	case adapter.DisksAuto, "":
		if l, ok := raid(); ok {
			return l, nil
		}
	case adapter.DisksRAID1:
		if l, ok := raid(); ok {
			return l, nil
		}
		return Layout{}, adapter.Errorf(adapter.InvalidInput,
			"disks = %q needs two drives of one kind, and the machine has %d NVMe and %d SATA drive(s); use disks = %q or %q, or pick a machine with two drives",
			want, len(nvme), len(sata), adapter.DisksAuto, adapter.DisksSingle).WithField("disks")
	case adapter.DisksSingle:
	default:
		return Layout{}, adapter.Errorf(adapter.InvalidInput, "disks = %q is not a layout; use %q, %q or %q",
			want, adapter.DisksAuto, adapter.DisksRAID1, adapter.DisksSingle).WithField("disks")
	}
	return Layout{Drives: first[:1]}, nil
}

// isDeviceName keeps lsblk names to what a device name is, so that nothing
// a machine reports can reach a generated line as more than a word.
func isDeviceName(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}
