# A Hetzner Cloud project: Console → your project → Security → API tokens,
# a token with Read & Write permission. The provider reads it from the
# environment on every request (export HCLOUD_TOKEN=...); state, plan and
# logs only ever hold the reference.
resource "compute_provider_account" "cloud" {
  name = "prod-cloud"
  hetzner_cloud = {
    token    = "env://HCLOUD_TOKEN"
    location = "fsn1"
  }
}

data "compute_offers" "small" {
  accounts       = [compute_provider_account.cloud.id]
  min_vcpu       = 2
  min_memory_gib = 4
}

resource "compute_instance" "web" {
  account  = compute_provider_account.cloud.id
  name     = "web-1"
  offer_id = [for o in data.compute_offers.small.offers : o.id if o.available][0]
  image    = "ubuntu-24.04"
  labels = {
    role = "web"
  }
}
