// Package install builds, without any I/O, everything the Robot bootstrap
// sends to a machine's rescue system to install it: the installimage
// config, install.sh, the sha256 check file of the first-boot binary, the
// first-boot unit, the install fingerprint, and the exact command lines of
// the SSH command protocol the SSH emulator interprets (setsid start,
// file delivery, poll, mount). Validate refuses, with the attribute path, every value that
// would reach a shell line or a unit file as anything but one plain word,
// so the SSH emulator's interpreter and a real sh read every generated line
// the same way. Nothing generated carries a file's content: contents travel
// on SSH stdin only, and the fingerprint digests paths, modes and
// references, never contents.
//
// It imports the contract (internal/adapter) and the standard library only.
package install
