# A Hetzner Cloud project. The token is a reference: the provider reads the
# environment variable HCLOUD_TOKEN on every request and never stores it.
resource "compute_provider_account" "cloud" {
  name = "prod-cloud"
  hetzner_cloud = {
    token    = "env://HCLOUD_TOKEN"
    location = "fsn1"
  }
}

output "cloud_account_health" {
  value = compute_provider_account.cloud.health
}
