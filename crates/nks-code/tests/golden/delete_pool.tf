# To delete it with Terraform, remove this block from your configuration and run
# `terraform apply`: the provider deletes nirvana_nks_node_pool.web.
# resource "nirvana_nks_node_pool" "web" {
#   cluster_id = "cluster-1"
#   name       = "web"
#   node_count = 3
#   node_config = {
#     instance_type = "n1-standard-4"
#     boot_volume = {
#       size = 100
#       type = "abs"
#     }
#     labels = ["tier=web"]
#     taints = ["dedicated=web:NoSchedule"]
#   }
#   tags = ["team"]
# }
