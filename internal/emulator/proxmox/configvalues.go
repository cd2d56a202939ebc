package proxmox

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// requestOnly are the parameters of a config write that are not config
// keys: they say how to write, not what.
var requestOnly = map[string]bool{
	"node": true, "vmid": true, "delete": true, "digest": true, "skiplock": true,
	"background_delay": true, "revert": true, "force": true, "import-working-storage": true,
}

func isConfigKey(k string) bool { return !requestOnly[k] }

var (
	driveKeyRE = regexp.MustCompile(`^((ide|scsi|sata|virtio)\d+|efidisk0|tpmstate0)$`)
	netKeyRE   = regexp.MustCompile(`^net\d+$`)
	// newVolumeRE is PVE's "STORAGE:SIZE_IN_GiB", a volume to allocate.
	newVolumeRE = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9_.-]*):(\d+(?:\.\d+)?)$`)
	// cloudinitVolumeRE is "STORAGE:cloudinit", a cloud-init drive to make.
	cloudinitVolumeRE = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9_.-]*):cloudinit$`)
)

// configKeySchema is the schema of config key k in a config write.
func configKeySchema(k string) *schema {
	m := apiSchema()["POST /nodes/{node}/qemu/{vmid}/config"]
	if m == nil || m.Parameters == nil {
		return nil
	}
	return m.Parameters.lookup(k)
}

// configValueLocked is what PVE writes into the config for k=val: tags
// normalised, drives and network devices parsed and printed again in
// their canonical form (the default key bare and first), a new volume
// ("local-lvm:8") or a cloud-init drive ("local-lvm:cloudinit") allocated
// as vm-VMID-disk-N or vm-VMID-cloudinit, a network device without a MAC
// given one. Other keys are kept as sent: the schema checked them.
func (e *Emulator) configValueLocked(v *vm, k, val string) (string, *apiError) {
	if k == "tags" {
		return normalizeTags(val)
	}
	isDrive, isNet := driveKeyRE.MatchString(k), netKeyRE.MatchString(k)
	if !isDrive && !isNet {
		return val, nil
	}
	s := configKeySchema(k)
	if s == nil {
		return val, nil
	}
	s.compile()
	if s.keys == nil {
		return val, nil
	}
	parsed, msg := parsePropertyString(s.keys, val)
	if msg != "" {
		return "", paramError(map[string]string{k: "invalid format - " + msg})
	}
	if isNet {
		if parsed["macaddr"] == "" {
			// PVE draws a MAC under its prefix BC:24:11; the emulator
			// makes one from the VMID and the NIC's index, so replays match.
			index, _ := strconv.Atoi(strings.TrimPrefix(k, "net"))
			parsed["macaddr"] = fmt.Sprintf("BC:24:11:%02X:%02X:%02X", 0x80|index, (v.vmid>>8)&0xff, v.vmid&0xff)
		}
		if parsed["model"] == "" {
			return "", paramError(map[string]string{k: "invalid format - format error\nmodel: property is missing and it is not optional"})
		}
		return printPropertyString(s.keys, parsed), nil
	}
	file := parsed["file"]
	switch {
	case cloudinitVolumeRE.MatchString(file):
		storage := cloudinitVolumeRE.FindStringSubmatch(file)[1]
		if _, err := storageNamed(storage); err != nil {
			return "", err
		}
		parsed["file"] = fmt.Sprintf("%s:vm-%d-cloudinit", storage, v.vmid)
		parsed["media"] = "cdrom"
	case newVolumeRE.MatchString(file):
		m := newVolumeRE.FindStringSubmatch(file)
		if _, err := storageNamed(m[1]); err != nil {
			return "", err
		}
		gib, _ := strconv.ParseFloat(m[2], 64)
		parsed["file"] = fmt.Sprintf("%s:vm-%d-disk-%d", m[1], v.vmid, v.nextDiskIndex())
		parsed["size"] = formatSize(int64(gib * (1 << 30)))
	}
	return printPropertyString(s.keys, parsed), nil
}

// nextDiskIndex is the lowest N no drive of v uses as vm-VMID-disk-N.
func (v *vm) nextDiskIndex() int {
	for i := 0; ; i++ {
		name := fmt.Sprintf("vm-%d-disk-%d", v.vmid, i)
		used := false
		for _, val := range v.conf {
			if strings.Contains(val, ":"+name+",") || strings.HasSuffix(val, ":"+name) {
				used = true
			}
		}
		if !used {
			return i
		}
	}
}
