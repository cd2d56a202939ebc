package proxmox

import (
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestConfigPropertyStrings reads config values as PVE and the tools that
// write them spell them: the default key anywhere or spelled out, empty
// parts, sizes in every unit PVE writes.
func TestConfigPropertyStrings(t *testing.T) {
	for _, c := range []struct {
		agent   string
		enabled bool
	}{
		{"1", true},
		{"enabled=1,fstrim_cloned_disks=0,type=virtio", true},
		{"fstrim_cloned_disks=1,1", true},
		{"type=virtio,0", false},
		{"enabled=0", false},
		{"", false},
		{"fstrim_cloned_disks=1", false},
	} {
		if got := (vmConfig{"agent": c.agent}).agentEnabled(); got != c.enabled {
			t.Errorf("agent %q: enabled %v, want %v", c.agent, got, c.enabled)
		}
	}
	for _, c := range []struct {
		drive string
		gib   float64
	}{
		{"local-lvm:vm-100-disk-0,size=10G", 10},
		{"file=local-lvm:vm-100-disk-0,size=512M,", 0.5},
		{"discard=on,size=1T,local-lvm:vm-100-disk-0", 1024},
		{"local-lvm:vm-100-disk-0,size=10737418240", 10},
		{"local-lvm:vm-100-disk-0", 0},
	} {
		if got := (vmConfig{"scsi0": c.drive}).diskGiB("scsi0"); got != c.gib {
			t.Errorf("%q: %v GiB, want %v", c.drive, got, c.gib)
		}
	}
	for _, c := range []struct {
		conf vmConfig
		want bool
	}{
		{vmConfig{"ide2": "local-lvm:vm-100-cloudinit,media=cdrom"}, true},
		{vmConfig{"ide2": "file=local-lvm:cloudinit,"}, true},
		{vmConfig{"ide2": "media=cdrom,local:iso/cloudinit-notes.iso"}, false},
		{vmConfig{"ide2": "local:100/vm-100-cloudinit.qcow2,media=cdrom"}, true},
		{vmConfig{"ide2": "none,media=cdrom"}, false},
		{vmConfig{"net0": "virtio=BC:24:11:00:00:64,bridge=cloudinit"}, false},
	} {
		if got := c.conf.hasCloudInit(); got != c.want {
			t.Errorf("%v: cloud-init %v, want %v", c.conf, got, c.want)
		}
	}
	conf := vmConfig{
		"boot": "legacy=cdn,order=virtio0;ide2;scsi0", "ide2": "local-lvm:vm-100-cloudinit,media=cdrom",
		"virtio0": "local-lvm:vm-100-disk-1,size=4G", "scsi0": "local-lvm:vm-100-disk-0,size=8G",
	}
	if got := conf.bootDisk(); got != "virtio0" {
		t.Errorf("boot disk %q, want virtio0 (the first disk of order, wherever order stands)", got)
	}
}

// TestCloudInitDriveGoesOnTheBootDisksStorage: without a storage setting,
// a template lacking a cloud-init drive gets one on its boot disk's
// storage, read from the drive's property string however it is written.
func TestCloudInitDriveGoesOnTheBootDisksStorage(t *testing.T) {
	a, err := fuzzAccount(nil)
	if err != nil {
		t.Fatal(err)
	}
	for disk, want := range map[string]string{
		"local-lvm:base-9000-disk-0,size=10G":           "local-lvm:cloudinit",
		"file=local-lvm:base-9000-disk-0,size=10G":      "local-lvm:cloudinit",
		"discard=on,size=1T,local-zfs:base-9000-disk-0": "local-zfs:cloudinit",
		"local:9000/base-9000-disk-0.qcow2":             "local:cloudinit",
	} {
		cfg := vmConfig{"scsi0": disk, "boot": "order=scsi0"}
		form, err := a.configForm(cfg, 100123, fuzzMark, flavor{Cores: 2, MemoryMiB: 2048, DiskGiB: 20}, adapter.CreateRequest{}, true)
		if err != nil {
			t.Errorf("boot disk %q: %v", disk, err)
			continue
		}
		if got := form.Get("ide2"); got != want {
			t.Errorf("boot disk %q: ide2 = %q, want %q", disk, got, want)
		}
	}
}
