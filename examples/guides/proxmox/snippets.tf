resource "compute_provider_account" "lab" {
  name = "lab"
  proxmox = {
    endpoint        = "https://pve1.example.com:8006"
    api_token       = "env://PROXMOX_API_TOKEN"
    tls_fingerprint = "3A:BD:A7:6D:F8:72:CB:92:BF:BE:1F:9E:05:0D:A1:34:F5:5B:66:31:9B:44:37:A0:40:63:33:A4:A6:2C:72:66"
    flavors = jsonencode({
      small = { cores = 2, memory_mib = 2048, disk_gib = 20 }
    })

    # user_data needs a storage whose content includes snippets, a key that
    # root@node accepts, and each node's host key pinned.
    snippet_storage = "local"
    ssh_private_key = "file:///home/you/.ssh/pve_ed25519"
    ssh_host_keys   = "SHA256:jVEF0FVGeUTExvZmUPX50LRvDeIKKOhdyRsyTeoP2zc,SHA256:ayKu1RNmzd794pAVVdNkumgpmwL4Le+Gul3NtyaYExw"
  }
}

resource "compute_instance" "web" {
  account   = compute_provider_account.lab.id
  name      = "web-1"
  offer_id  = "small"
  image     = "ubuntu-24.04-cloud"
  user_data = <<-EOT
    #cloud-config
    packages: [nginx]
  EOT
}
