resource "compute_provider_account" "cloud" {
  name = "prod-cloud"
  hetzner_cloud = {
    token    = "env://HCLOUD_TOKEN"
    location = "fsn1"
  }
}

# Every offer in fsn1 with at least 4 vCPU and 8 GiB of memory for at most
# 0.05 per hour, cheapest first.
data "compute_offers" "medium" {
  accounts           = [compute_provider_account.cloud.id]
  location           = "fsn1"
  min_vcpu           = 4
  min_memory_gib     = 8
  max_price_per_hour = 0.05
}

locals {
  available = [for o in data.compute_offers.medium.offers : o if o.available]
}

output "cheapest_medium_offer" {
  value = length(local.available) > 0 ? {
    id             = local.available[0].id
    description    = local.available[0].description
    price_per_hour = local.available[0].price_per_hour
    currency       = local.available[0].currency
  } : null
}
