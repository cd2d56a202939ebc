# Reboots compute_instance.web in place, without changing its configuration:
#
#   terraform apply -invoke=action.compute_instance_reboot.web
#
# The next plan is empty: a reboot changes nothing Terraform records.
action "compute_instance_reboot" "web" {
  config {
    instance = compute_instance.web
  }
}
