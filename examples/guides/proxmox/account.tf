resource "compute_provider_account" "lab" {
  name = "lab"
  proxmox = {
    endpoint        = "https://pve1.example.com:8006"
    api_token       = "env://PROXMOX_API_TOKEN" # USER@REALM!TOKENID=SECRET
    tls_fingerprint = "3A:BD:A7:6D:F8:72:CB:92:BF:BE:1F:9E:05:0D:A1:34:F5:5B:66:31:9B:44:37:A0:40:63:33:A4:A6:2C:72:66"
    flavors = jsonencode({
      small  = { cores = 2, memory_mib = 2048, disk_gib = 20 }
      medium = { cores = 4, memory_mib = 8192, disk_gib = 40 }
    })
  }
}

resource "compute_instance" "web" {
  account  = compute_provider_account.lab.id
  name     = "web-1"
  offer_id = "small"              # a flavor name
  image    = "ubuntu-24.04-cloud" # a template's name
}
