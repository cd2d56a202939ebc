package sshhost

import "encoding/pem"

const hostKeyPath = "/etc/ssh/ssh_host_ed25519_key"

// disk is the machine's persistent storage: nil fs until an install wrote
// a system, and the device the installed root is mounted from.
type disk struct {
	fs      *fsys
	rootDev string
}

// UnitState is what the installed system reports of one unit it starts at
// boot.
type UnitState struct {
	Unit        string `json:"unit"`
	ActiveState string `json:"active_state"`
	Result      string `json:"result"`
	// Runs are the ExecStart argv of each time the unit ran.
	Runs [][]string `json:"runs"`
	// succeeded is set once a run succeeded, so a later boot that skips the
	// unit on its condition still reports success.
	succeeded bool
}

func pemBytes(typ string, b []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: b})
}
