resource "compute_provider_account" "cloud" {
  name = "prod-cloud"
  hetzner_cloud = {
    token    = "env://HCLOUD_TOKEN"
    location = "fsn1"
  }
}

# Every server of the project whose name starts with web-, whether this
# provider created it or not. Import blocks need their for_each at plan time,
# and Terraform reads a data source at plan only when its accounts have no
# change pending: apply the account on its own first, e.g.
#   terraform apply -target=compute_provider_account.cloud
data "compute_machines" "fleet" {
  accounts    = [compute_provider_account.cloud.id]
  name_prefix = "web-"
}

locals {
  fleet = { for m in data.compute_machines.fleet.machines : m.name => m }
}

# Adopt the servers the provider did not create; the apply that imports them
# marks them as managed, after which this imports nothing more.
import {
  for_each = { for name, m in local.fleet : name => m if !m.managed }
  to       = compute_instance.fleet[each.key]
  id       = each.value.id
}

# One instance per server, written as the server is, so that the import
# plans no change beyond the mark: power too, or a stopped server would be
# switched on.
resource "compute_instance" "fleet" {
  for_each = local.fleet

  account  = compute_provider_account.cloud.id
  name     = each.value.name
  offer_id = each.value.offer_id
  image    = each.value.image
  location = each.value.location
  labels   = each.value.labels
  power    = each.value.state == "stopped" ? "off" : "on"
}

output "fleet" {
  value = { for name, i in compute_instance.fleet : name => i.ipv4_address }
}
