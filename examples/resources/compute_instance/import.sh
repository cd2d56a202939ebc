# An instance's id is its account's id, a slash, and the machine's id at the
# backend (the Hetzner Cloud server id here). Read the account's id with
# `terraform state show compute_provider_account.cloud`.
terraform import compute_instance.legacy 'hcloud:endpoint=https%3A%2F%2Fapi.hetzner.cloud%2Fv1&location=fsn1&token=env%3A%2F%2FHCLOUD_TOKEN/4711'
