# To delete it with Terraform, remove this block from your configuration and run
# `terraform apply`: the provider deletes nirvana_networking_vpc.edge.
# resource "nirvana_networking_vpc" "edge" {
#   name        = "edge"
#   project_id  = "project-1"
#   region      = "us-sva-2"
#   subnet_name = "edge-subnet"
# }
