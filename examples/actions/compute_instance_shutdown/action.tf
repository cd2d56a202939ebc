# Asks the guest of compute_instance.web to shut down, and cuts the power
# after two minutes if it is still running then:
#
#   terraform apply -invoke=action.compute_instance_shutdown.web
action "compute_instance_shutdown" "web" {
  config {
    instance         = compute_instance.web
    shutdown_timeout = "2m"
  }
}
