resource "nirvana_nks_cluster" "prod" {
  autoscaling        = true
  kubernetes_version = "1.31"
  name               = "prod"
  project_id         = "project-1"
  region             = "us-sva-2"
  vpc_id             = "vpc-1"
  tags               = ["production"]
}
