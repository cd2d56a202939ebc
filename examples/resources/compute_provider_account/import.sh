# An account's id is its configuration (adapter, settings and secret
# references, never secrets), so importing only records it in state:
terraform import compute_provider_account.cloud 'hcloud:endpoint=https%3A%2F%2Fapi.hetzner.cloud%2Fv1&location=fsn1&token=env%3A%2F%2FHCLOUD_TOKEN'
