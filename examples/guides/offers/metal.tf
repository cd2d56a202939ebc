resource "compute_provider_account" "metal" {
  name = "prod-metal"
  hetzner_robot = {
    user     = "env://HETZNER_ROBOT_USER"
    password = "env://HETZNER_ROBOT_PASSWORD"
    location = "fsn1"
  }
}

# Dedicated servers with at least 8 cores and 64 GiB for at most 100 a
# month: Robot prices are monthly, gross (VAT included); price_per_hour is
# the monthly price spread over 730 hours.
data "compute_offers" "db" {
  accounts       = [compute_provider_account.metal.id]
  kind           = "metal"
  min_vcpu       = 8
  min_memory_gib = 64
}

locals {
  db = [for o in data.compute_offers.db.offers : o if o.available && coalesce(o.price_per_month, 0) <= 100]
}

# Servers with at least one GPU whose model names an RTX 4000. No listing
# Robot answers carries GPU data, so on Robot this is [] today: write
# configurations that handle an empty list.
data "compute_offers" "gpu" {
  accounts  = [compute_provider_account.metal.id]
  kind      = "metal"
  min_gpus  = 1
  gpu_model = "RTX 4000"
}

output "db_offers" {
  value = [for o in local.db : {
    id        = o.id
    month     = o.price_per_month
    setup_fee = o.setup_fee
    currency  = o.currency
  }]
}

output "gpu_offers" {
  value = [for o in data.compute_offers.gpu.offers : "${o.id}: ${o.gpus} x ${o.gpu_model}"]
}
