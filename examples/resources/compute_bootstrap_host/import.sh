# A server installed outside Terraform is taken as it is: phase ready,
# nothing installed. The id is the account's id and the server's number.
terraform import compute_bootstrap_host.db 'robot:location=fsn1&password=env%3A%2F%2FROBOT_PASSWORD&user=env%3A%2F%2FROBOT_USER/321456'
