# Cuts the power of compute_instance.web at once, without asking the guest:
#
#   terraform apply -invoke=action.compute_instance_power_off.web
#
# An instance whose configuration says power = "on" shows the change in its
# next plan, and the next apply starts it again: to keep it off, set
# power = "off" instead.
action "compute_instance_power_off" "web" {
  config {
    instance = compute_instance.web
  }
}
