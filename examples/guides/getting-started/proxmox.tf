# A Proxmox VE cluster: an API token (Datacenter → Permissions → API Tokens),
# exported as USER@REALM!TOKENID=SECRET, the API's URL, and the SHA-256 of its
# certificate (pvenode cert info), which pins it.
resource "compute_provider_account" "lab" {
  name = "lab"
  proxmox = {
    endpoint        = "https://pve1.example.com:8006"
    api_token       = "env://PROXMOX_VE_API_TOKEN"
    tls_fingerprint = "3A:BD:A7:6D:F8:72:CB:92:BF:BE:1F:9E:05:0D:A1:34:F5:5B:66:31:9B:44:37:A0:40:63:33:A4:A6:2C:72:66"
    # Proxmox has no catalog: the account's flavors are its offers.
    flavors = jsonencode({
      small = { cores = 2, memory_mib = 2048, disk_gib = 20 }
    })
  }
}

resource "compute_instance" "vm" {
  account  = compute_provider_account.lab.id
  name     = "vm-1"
  offer_id = "small"
  image    = "ubuntu-24.04-cloud" # the name of a VM template
}
