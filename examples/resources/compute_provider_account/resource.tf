# A Hetzner Cloud project. The token is a reference: the provider reads the
# environment variable HCLOUD_TOKEN on every request and never stores it.
resource "compute_provider_account" "cloud" {
  name = "prod-cloud"
  hetzner_cloud = {
    token    = "env://HCLOUD_TOKEN"
    location = "fsn1"

    # Optional: the project SSH keys (names or ids, as `hcloud ssh-key
    # list` shows them) a rescue system admits; compute_instance_rescue
    # needs it.
    rescue_ssh_keys = "ops,ci"
  }
}

output "cloud_account_health" {
  value = compute_provider_account.cloud.health
}

# A Proxmox VE cluster. api_token resolves to the line PVE shows once when
# the token is made, USER@REALM!TOKENID=SECRET. tls_fingerprint pins the
# API's certificate (`pvenode cert info`): nothing, the token included, is
# sent to a server whose certificate does not match. Flavors are the
# cluster's catalog: offer_id names one.
resource "compute_provider_account" "lab" {
  name = "lab"
  proxmox = {
    endpoint        = "https://pve1.example.com:8006"
    api_token       = "env://PROXMOX_API_TOKEN"
    tls_fingerprint = "3A:BD:A7:6D:F8:72:CB:92:BF:BE:1F:9E:05:0D:A1:34:F5:5B:66:31:9B:44:37:A0:40:63:33:A4:A6:2C:72:66"
    flavors = jsonencode({
      small = { cores = 2, memory_mib = 2048, disk_gib = 20 }
      large = { cores = 8, memory_mib = 16384, disk_gib = 80 }
    })

    # Optional: pin every create to one node (else the one with the most
    # free memory that fits the flavor).
    node = "pve1"

    # user_data needs a snippet storage and SSH to the nodes, with each
    # node's host key pinned (ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub):
    # snippet_storage = "local"
    # ssh_private_key = "file:///home/you/.ssh/pve_ed25519"
    # ssh_host_keys   = "SHA256:…,SHA256:…"
  }
}

output "lab_account_health" {
  value = compute_provider_account.lab.health
}
