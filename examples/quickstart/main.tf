# Quick start: one Hetzner Cloud account, the cheapest offer with at least two
# vCPU, and two servers booted with a small cloud-init; when you rent a
# dedicated server on Hetzner Robot, that server installed from its rescue
# system as a host with one secret file and a first-boot program; and, when
# you run Proxmox VE, one VM cloned from a template.
#
#   export HCLOUD_TOKEN=...   # a read & write API token of a Hetzner Cloud project
#   terraform init && terraform apply
#
# With a Robot server too (it is wiped and installed anew):
#
#   export ROBOT_USER=... ROBOT_PASSWORD=...   # a Robot webservice user
#   export QUICKSTART_HOST_TOKEN=...           # the secret file's content
#   terraform apply -var 'robot={machine_id="321456", ssh_key="d4:1c:…", ssh_private_key="file:///home/you/.ssh/id_ed25519",
#     first_boot={url="https://…/agent", sha256="…"}}'
#
# With a Proxmox VE cluster too (one VM cloned from a template):
#
#   export PROXMOX_API_TOKEN='root@pam!tf=…'   # USER@REALM!TOKENID=SECRET
#   terraform apply -var 'proxmox={endpoint="https://pve1.example.com:8006", tls_fingerprint="AB:CD:…"}'
#
# `make demo` runs this configuration against local emulators of the Hetzner
# Cloud API, the Robot webservice and the servers' SSH, and Proxmox VE
# instead, so no account is needed.

terraform {
  required_version = ">= 1.11"
  required_providers {
    compute = {
      source = "seedcompute/compute"
    }
  }
}

provider "compute" {}

variable "hcloud_endpoint" {
  description = "Base URL of the Hetzner Cloud API. The demo points it at the local emulator."
  type        = string
  default     = "https://api.hetzner.cloud/v1"
}

variable "servers" {
  description = "How many servers to create."
  type        = number
  default     = 2
}

variable "robot" {
  description = <<-EOT
    A dedicated server you rent on Hetzner Robot, to be installed as a host;
    null (the default) leaves Robot out. machine_id is the server's number;
    ssh_key the fingerprint of your public key as Robot's Key management lists
    it, and ssh_private_key a reference to its private key (file:///…);
    first_boot the https URL and SHA-256 of a program the host runs once.
  EOT
  type = object({
    machine_id      = string
    ssh_key         = string
    ssh_private_key = string
    endpoint        = optional(string, "https://robot-ws.your-server.de")
    ssh_port        = optional(number, 22)
    first_boot = object({
      url    = string
      sha256 = string
    })
  })
  default = null
}

resource "compute_provider_account" "cloud" {
  name = "quickstart"
  hetzner_cloud = {
    token    = "env://HCLOUD_TOKEN"
    location = "fsn1"
    endpoint = var.hcloud_endpoint
  }
}

# Offers come sorted by price, cheapest first.
data "compute_offers" "two_vcpu" {
  accounts = [compute_provider_account.cloud.id]
  location = "fsn1"
  min_vcpu = 2
}

locals {
  offer = [for o in data.compute_offers.two_vcpu.offers : o if o.available][0]
}

resource "compute_instance" "web" {
  count = var.servers

  account   = compute_provider_account.cloud.id
  name      = "quickstart-web-${count.index + 1}"
  offer_id  = local.offer.id
  image     = "ubuntu-24.04"
  user_data = <<-EOT
    #cloud-config
    hostname: quickstart-web-${count.index + 1}
    packages: [nginx]
    runcmd:
      - systemctl enable --now nginx
  EOT

  labels = {
    app = "quickstart"
  }
}

output "offer" {
  description = "The offer the servers run on."
  value = {
    id             = local.offer.id
    description    = local.offer.description
    vcpu           = local.offer.vcpu
    memory_gib     = local.offer.memory_gib
    price_per_hour = local.offer.price_per_hour
    currency       = local.offer.currency
  }
}

output "servers" {
  description = "Each server's addresses and state."
  value = {
    for s in compute_instance.web : s.name => {
      id    = s.id
      state = s.state
      ipv4  = s.ipv4_address
      ipv6  = s.ipv6_address
    }
  }
}

resource "compute_provider_account" "robot" {
  count = var.robot == null ? 0 : 1

  name = "quickstart-robot"
  hetzner_robot = {
    user            = "env://ROBOT_USER"
    password        = "env://ROBOT_PASSWORD"
    endpoint        = var.robot.endpoint
    ssh_port        = tostring(var.robot.ssh_port)
    ssh_key         = var.robot.ssh_key
    ssh_private_key = var.robot.ssh_private_key
  }
}

# Rescue, install, reboot, first boot: each phase is kept in state, so an
# interrupted apply resumes where it stopped. Destroy releases the server
# (it stays rented).
resource "compute_bootstrap_host" "db" {
  count = var.robot == null ? 0 : 1

  account    = compute_provider_account.robot[0].id
  hostname   = "quickstart-db"
  machine_id = var.robot.machine_id
  image      = "Ubuntu-2404-noble-amd64-base"

  files = [{
    # The reference is shown in the plan; its value goes over SSH stdin into
    # the installed system and never into state, plan or logs.
    path   = "/etc/quickstart/token"
    secret = "env://QUICKSTART_HOST_TOKEN"
  }]

  first_boot = {
    url     = var.robot.first_boot.url
    sha256  = var.robot.first_boot.sha256
    command = ["/usr/local/bin/quickstart-agent", "--token-file=/etc/quickstart/token"]
  }
}

output "host" {
  description = "The dedicated host: how far its bootstrap got, and its host key for ssh -o UserKnownHostsFile=…"
  value = var.robot == null ? null : {
    phase       = compute_bootstrap_host.db[0].phase
    ipv4        = compute_bootstrap_host.db[0].ipv4
    known_hosts = compute_bootstrap_host.db[0].known_hosts
  }
}

variable "proxmox" {
  description = <<-EOT
    A Proxmox VE cluster to clone one VM on; null (the default) leaves
    Proxmox out. endpoint is the API's URL, tls_fingerprint the SHA-256 of
    its certificate (pvenode cert info), template the name of a VM template
    with cloud-init and the guest agent, and node, when set, the node the VM
    goes to.
  EOT
  type = object({
    endpoint        = string
    tls_fingerprint = string
    template        = optional(string, "ubuntu-24.04-cloud")
    node            = optional(string)
  })
  default = null
}

resource "compute_provider_account" "pve" {
  count = var.proxmox == null ? 0 : 1

  name = "quickstart-pve"
  proxmox = {
    endpoint        = var.proxmox.endpoint
    api_token       = "env://PROXMOX_API_TOKEN"
    tls_fingerprint = var.proxmox.tls_fingerprint
    node            = var.proxmox.node
    # PVE has no catalog: the account's flavors are its offers.
    flavors = jsonencode({
      small = { cores = 2, memory_mib = 2048, disk_gib = 20 }
    })
  }
}

# A linked clone of the template, in a VMID derived from its name, started
# and reachable at the address its guest agent reports.
resource "compute_instance" "vm" {
  count = var.proxmox == null ? 0 : 1

  account  = compute_provider_account.pve[0].id
  name     = "quickstart-vm"
  offer_id = "small"
  image    = var.proxmox.template
}

output "vm" {
  description = "The Proxmox VM: its VMID, node, state and addresses."
  value = var.proxmox == null ? null : {
    vmid  = reverse(split("/", compute_instance.vm[0].id))[0]
    node  = compute_instance.vm[0].location
    state = compute_instance.vm[0].state
    ipv4  = compute_instance.vm[0].ipv4_address
    ipv6  = compute_instance.vm[0].ipv6_address
  }
}
