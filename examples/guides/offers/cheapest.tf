resource "compute_provider_account" "cloud" {
  name = "prod-cloud"
  hetzner_cloud = {
    token    = "env://HCLOUD_TOKEN"
    location = "fsn1"
  }
}

resource "compute_provider_account" "lab" {
  name = "lab"
  proxmox = {
    endpoint        = "https://pve1.example.com:8006"
    api_token       = "env://PROXMOX_VE_API_TOKEN"
    tls_fingerprint = "3A:BD:A7:6D:F8:72:CB:92:BF:BE:1F:9E:05:0D:A1:34:F5:5B:66:31:9B:44:37:A0:40:63:33:A4:A6:2C:72:66"
    flavors = jsonencode({
      small = { cores = 2, memory_mib = 2048, disk_gib = 20 }
    })
  }
}

# One catalog over both accounts, cheapest first. Each account reads its
# own default location (hetzner_cloud.location, proxmox.node).
data "compute_offers" "two_vcpu" {
  accounts       = [compute_provider_account.lab.id, compute_provider_account.cloud.id]
  min_vcpu       = 2
  min_memory_gib = 2
}

locals {
  on_sale = [for o in data.compute_offers.two_vcpu.offers : o if o.available]
  # Offers without a price (Proxmox flavors: price_per_hour = 0) come last.
  # Prefer your own hardware when a flavor fits, else the cheapest offer.
  own  = [for o in local.on_sale : o if o.price_per_hour == 0]
  pick = length(local.own) > 0 ? local.own[0] : local.on_sale[0]
  # Images are named per backend: a template on Proxmox, an image on Hetzner
  # Cloud.
  image = {
    (compute_provider_account.lab.id)   = "ubuntu-24.04-cloud"
    (compute_provider_account.cloud.id) = "ubuntu-24.04"
  }
}

resource "compute_instance" "app" {
  account  = local.pick.account
  name     = "app-1"
  offer_id = local.pick.id
  # A Proxmox account without a node lists its flavors with location "":
  # null lets the provider pick the node with the most free memory.
  location = local.pick.location == "" ? null : local.pick.location
  image    = local.image[local.pick.account]
}

# Only priced offers: with max_price_per_hour set, offers without a price
# (Proxmox flavors) are left out. Prices are gross, VAT included.
data "compute_offers" "budget" {
  accounts           = [compute_provider_account.lab.id, compute_provider_account.cloud.id]
  min_vcpu           = 2
  max_price_per_hour = 0.02
}

output "app" {
  value = {
    account = compute_instance.app.account
    offer   = compute_instance.app.offer_id
  }
}

output "cheapest_priced" {
  value = length(data.compute_offers.budget.offers) > 0 ? {
    id             = data.compute_offers.budget.offers[0].id
    price_per_hour = data.compute_offers.budget.offers[0].price_per_hour
    currency       = data.compute_offers.budget.offers[0].currency
  } : null
}
