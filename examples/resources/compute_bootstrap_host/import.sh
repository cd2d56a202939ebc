# A server installed outside Terraform is taken as it is: phase ready,
# nothing installed. The import id is the account's id (from `terraform
# output -raw` of an output holding compute_provider_account.robot.id, or
# `terraform show -json`), a slash, and the server's number; the host's id is
# then the server's number.
terraform import compute_bootstrap_host.db '{"allow_order":"false","cancel_on_destroy":"false","endpoint":"https://robot-ws.your-server.de","kind":"robot","location":"fsn1","name":"prod-robot","password":"env://ROBOT_PASSWORD","ssh_key":"d4:1c:7b:52:9e:03:aa:61:0f:88:2b:c3:5e:19:70:ee","ssh_port":"22","ssh_private_key":"file:///home/deploy/.ssh/robot_ed25519","user":"env://ROBOT_USER"}/321456'
