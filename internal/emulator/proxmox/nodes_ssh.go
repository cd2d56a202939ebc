package proxmox

type sshNodes struct{}

func (s *sshNodes) close() {}
