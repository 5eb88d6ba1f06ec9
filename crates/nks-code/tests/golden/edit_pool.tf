# Terraform updates nirvana_nks_node_pool.web-2 in place: name, node_count, tags.
# A change to cluster_id or node_config would replace it instead (destroyed, then made again);
# for a pool, make the new one first, drain the old one, then delete it.
resource "nirvana_nks_node_pool" "web-2" {
  cluster_id = "cluster-1"
  name       = "web-2"
  node_count = 2
  node_config = {
    instance_type = "n1-standard-4"
    boot_volume = {
      size = 100
      type = "abs"
    }
    labels = ["tier=web"]
    taints = ["dedicated=web:NoSchedule"]
  }
}
