# Starts compute_instance.web after someone stopped it:
#
#   terraform apply -invoke=action.compute_instance_power_on.web
action "compute_instance_power_on" "web" {
  config {
    instance = compute_instance.web
  }
}
