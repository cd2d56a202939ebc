# Every rented server of the account whose name starts with db- and that the
# provider does not manage yet, as a host taken as it is (Terraform 1.14 and
# later). The generated configuration leaves image null: write the image
# each server runs before the first plan.
list "compute_bootstrap_host" "db" {
  provider         = compute
  include_resource = true
  config {
    accounts    = [compute_provider_account.metal.id]
    name_prefix = "db-"
    managed     = false
    # Machines being deleted are left out: no import block for them.
    states = ["running", "stopped"]
  }
}
