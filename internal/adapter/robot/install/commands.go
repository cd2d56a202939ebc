package install

import (
	"strconv"
	"strings"
)

// The rescue system's working directory and the files in it.
const (
	Dir         = "/root/compute"
	ConfigPath  = Dir + "/install.conf"
	ScriptPath  = Dir + "/install.sh"
	SumsPath    = Dir + "/first-boot.sha256"
	UnitPath    = Dir + "/compute-first-boot.service"
	FPPath      = Dir + "/install.fp"
	LogPath     = Dir + "/install.log"
	ExitPath    = Dir + "/install.exit"
	HostKeyPath = Dir + "/host_key.pub"
	// KeysPath holds the keys installimage admits on the installed root:
	// the account's key as Robot lists it, written by the bootstrap rather
	// than taken from rescue's own authorized_keys, which admits whatever
	// keys the last rescue activation named (and which a rescue system need
	// not keep on its filesystem at all).
	KeysPath = Dir + "/authorized_keys"
	// InstalledFP is where the installed disk keeps its fingerprint.
	InstalledFP = "/etc/compute/install"
	UnitName    = "compute-first-boot.service"
)

// FilePath is where file index waits in rescue for install.sh.
func FilePath(index int) string { return Dir + "/files/" + strconv.Itoa(index) }

// The fixed lines of the protocol.
const (
	HostnameLine = "hostname"
	IdentifyLine = "dmidecode -s system-uuid"
	LsblkLine    = "lsblk -dn -o NAME,TRAN"
	RunningLine  = "pgrep -x installimage"
	PollLine     = "cat " + ExitPath
	LogLine      = "cat " + LogPath
	HostKeyLine  = "cat " + HostKeyPath
	UnitLine     = "systemctl show -p ActiveState,Result " + UnitName
	// StartLine starts install.sh detached, so that a dropped session
	// does not end it, and leaves its status in install.exit. Its own
	// output goes to /dev/null: a detached process that kept the channel's
	// stdout and stderr would hold an OpenSSH session open until the
	// install ends.
	StartLine = "setsid -f sh -c 'sh " + ScriptPath + " > " + LogPath + " 2>&1; echo $? > " + ExitPath + "' < /dev/null > /dev/null 2>&1"
	// HostKeyCopyLine copies the installed system's host key where
	// HostKeyLine reads it, for an install done before (after MountLine).
	HostKeyCopyLine = "cp /mnt/etc/ssh/ssh_host_ed25519_key.pub " + HostKeyPath
	// InstalledFPLine reads the installed disk's fingerprint (after MountLine).
	InstalledFPLine = "cat /mnt" + InstalledFP
	UnmountLine     = "umount /mnt"
	// InstalledHostKeyLine reads the installed system's public host key
	// from its disk (after MountLine), for an install done before.
	InstalledHostKeyLine = "cat /mnt/etc/ssh/ssh_host_ed25519_key.pub"
	// RunFPLine reads the fingerprint of the install whose exit status
	// install.exit holds: an exit of another install does not count.
	RunFPLine = "cat " + FPPath
	// LogExistsLine tells an install that was started (StartLine's inner
	// sh creates the log first) from one that never was.
	LogExistsLine = "test -e " + LogPath
	// ClearLine forgets an earlier install's outcome before a new start.
	ClearLine = "rm -f " + ExitPath + " " + LogPath
)

// DeliverLine writes stdin into file index, readable by root only.
func DeliverLine(index int) string {
	return "umask 077 && mkdir -p " + Dir + "/files && cat > " + FilePath(index)
}

// WriteLine writes stdin into one of the rescue files (config, script,
// unit, sums, fingerprint); they hold no secret, umask 077 all the same.
func WriteLine(path string) string {
	return "umask 077 && mkdir -p " + Dir + " && cat > " + path
}

// MountLine mounts the installed root at /mnt.
func MountLine(l Layout) string { return "mount " + l.Root() + " /mnt" }

// ReadyLine is the ReadyCommand as one line. Its first word is quoted when
// it holds "=": bare, the shell would take NAME=value for an assignment
// and run the next word as the command.
func ReadyLine(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = word(a)
		if i == 0 && words[i] == a && strings.Contains(a, "=") {
			words[i] = "'" + a + "'"
		}
	}
	return strings.Join(words, " ")
}
