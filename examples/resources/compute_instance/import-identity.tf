# Terraform 1.12 and later, and OpenTofu 1.12: name the server by its
# identity, the account's id and the server's id at Hetzner Cloud, instead
# of an import id.
import {
  to = compute_instance.legacy
  identity = {
    account = compute_provider_account.cloud.id
    id      = "4711"
  }
}
