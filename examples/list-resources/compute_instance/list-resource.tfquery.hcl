# Every web- server of the account that the provider does not manage yet,
# each with the compute_instance an import would hold (Terraform 1.14 and
# later). `terraform query -generate-config-out=fleet.tf` writes an import
# block and a resource block for each.
list "compute_instance" "web" {
  provider         = compute
  include_resource = true
  config {
    accounts    = [compute_provider_account.cloud.id]
    name_prefix = "web-"
    managed     = false
    # Machines being deleted are left out: no import block for them.
    states = ["running", "stopped"]
  }
}
